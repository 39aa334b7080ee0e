/** An account's tiers as stored (accounts.tiers), for whoever shows or sends a customer's tier. */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { readTiers, type Tier } from "./tiers.js";

export async function accountTiers(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
): Promise<Tier[]> {
  const row = await db
    .selectFrom("accounts")
    .select("tiers")
    .where("id", "=", accountId)
    .executeTakeFirst();
  return readTiers(row?.tiers);
}
