import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface AccountSettings {
  vipThreshold?: number;
}

/** Applies the given settings; returns false when the account does not exist. */
export async function updateAccount(
  db: Kysely<Database>,
  accountId: string,
  settings: AccountSettings,
): Promise<boolean> {
  const exists = await db
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!exists) return false;
  if (settings.vipThreshold !== undefined) {
    await db
      .updateTable("accounts")
      .set({ vip_threshold: settings.vipThreshold })
      .where("id", "=", accountId)
      .execute();
  }
  return true;
}
