import type { Kysely } from "kysely";

/**
 * A merchant's team:
 * - `users.role`: owner, admin or member; every log-in that existed was its account's only one,
 *   so existing users become owners. `users.last_sign_in_at` for Settings → Team.
 * - `sessions.ip`, `sessions.browser`, `sessions.last_seen_at`: where a session signed in from
 *   (the client address under TRUST_PROXY, a browser family such as "Firefox on macOS") and when
 *   it was last used, for Profile's list of signed-in sessions.
 * - `user_invitations`: pending invitations (single use, 7 days); only the token's hash.
 * - `password_resets`: reset links (single use, 1 hour), also from `velvet user add` (a new user
 *   sets a password through one); only the token's hash.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("role", "text", (c) => c.notNull().defaultTo("owner"))
    .execute();
  await db.schema.alterTable("users").addColumn("last_sign_in_at", "bigint").execute();
  await db.schema.alterTable("sessions").addColumn("ip", "text").execute();
  await db.schema.alterTable("sessions").addColumn("browser", "text").execute();
  await db.schema.alterTable("sessions").addColumn("last_seen_at", "bigint").execute();

  await db.schema
    .createTable("user_invitations")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_normalized", "text", (c) => c.notNull())
    .addColumn("role", "text", (c) => c.notNull())
    .addColumn("invited_by", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint")
    .execute();
  await db.schema
    .createIndex("user_invitations_account_idx")
    .on("user_invitations")
    .columns(["account_id", "email_normalized"])
    .execute();

  await db.schema
    .createTable("password_resets")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    // A user's links go with the user (removal from a team, closing the account).
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint")
    .execute();
  await db.schema
    .createIndex("password_resets_user_idx")
    .on("password_resets")
    .column("user_id")
    .execute();
}
