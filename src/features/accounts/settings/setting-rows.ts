/**
 * Where the settings stored as data live: `account_settings`, one row per account and setting
 * that was written (its key, its value as JSON text); no row: the setting's default. Removed
 * when the account is closed, like its alert channels' settings.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../../db/schema.js";

type Db = Kysely<Database> | Transaction<Database>;

/** The stored JSON text of an account's settings, by key. */
export type SettingRows = ReadonlyMap<string, string>;

export const NO_ROWS: SettingRows = new Map();

/** The rows of the given keys (none given: no query). */
export async function readSettingRows(
  db: Db,
  accountId: string,
  keys: readonly string[],
): Promise<SettingRows> {
  if (keys.length === 0) return NO_ROWS;
  const rows = await db
    .selectFrom("account_settings")
    .select(["key", "value"])
    .where("account_id", "=", accountId)
    .where("key", "in", keys)
    .execute();
  return new Map(rows.map((row) => [row.key, row.value]));
}

/** Writes each value (JSON text) under its key, replacing what was there. */
export async function writeSettingRows(
  db: Db,
  accountId: string,
  values: ReadonlyMap<string, string>,
  now: number,
): Promise<void> {
  for (const [key, value] of values) {
    await db
      .insertInto("account_settings")
      .values({ account_id: accountId, key, value, updated_at: now })
      .onConflict((oc) => oc.columns(["account_id", "key"]).doUpdateSet({ value, updated_at: now }))
      .execute();
  }
}

/** Removes every setting row of the account (account closing). */
export async function clearSettingRows(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom("account_settings").where("account_id", "=", accountId).execute();
}
