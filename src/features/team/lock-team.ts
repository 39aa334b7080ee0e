/**
 * Serialises changes to one account's team: a no-op update of the account row takes its row
 * lock on PostgreSQL (the write lock on SQLite) until commit, so two owners demoting each other
 * at once cannot both pass the "at least one owner" check.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";

export async function lockTeam(trx: Transaction<Database>, accountId: string): Promise<boolean> {
  const locked = await trx
    .updateTable("accounts")
    .set((eb) => ({ name: eb.ref("name") }))
    .where("id", "=", accountId)
    .where("closed_at", "is", null)
    .executeTakeFirst();
  return Number(locked.numUpdatedRows) > 0;
}

export async function ownerCount(trx: Transaction<Database>, accountId: string): Promise<number> {
  const row = await trx
    .selectFrom("users")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("account_id", "=", accountId)
    .where("role", "=", "owner")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
