import type { Kysely } from "kysely";

/**
 * Known devices: a browser that signed in as a user gets a device cookie (a random token; only
 * its SHA-256 is stored here, with the user). A password-reset request from such a browser is
 * counted on that device's own budget, so requests from elsewhere cannot block it
 * (features/security/known-device.ts). The rows go with the user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("known_devices")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("known_devices_user_idx")
    .on("known_devices")
    .column("user_id")
    .execute();
}
