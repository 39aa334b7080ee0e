import type { Kysely } from "kysely";

/**
 * Account settings as data (features/accounts/settings/setting-rows.ts).
 * - `account_settings`: one row per account and setting stored as data that was written (its
 *   key in ACCOUNT_SETTINGS, its value as JSON text, when it was written); no row: the
 *   setting's default, so a new setting needs no migration. Removed when the account is
 *   closed, like its alert channels' settings.
 * - The settings a hot query joins keep their columns of `accounts`; nothing is copied.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("account_settings")
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("key", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("account_settings_pk", ["account_id", "key"])
    .execute();
}
