import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface AccountView {
  accountId: string;
  name: string;
  vipThreshold: number;
  storeId: string;
}

export async function getAccount(
  db: Kysely<Database>,
  accountId: string,
): Promise<AccountView | null> {
  const row = await db
    .selectFrom("accounts")
    .innerJoin("stores", "stores.account_id", "accounts.id")
    .select(["accounts.id", "accounts.name", "accounts.vip_threshold", "stores.id as store_id"])
    .where("accounts.id", "=", accountId)
    .orderBy("stores.created_at")
    .executeTakeFirst();
  if (!row) return null;
  return {
    accountId: row.id,
    name: row.name,
    vipThreshold: row.vip_threshold,
    storeId: row.store_id,
  };
}
