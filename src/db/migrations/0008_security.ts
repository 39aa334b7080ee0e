import type { Kysely } from "kysely";

/**
 * Locking the doors:
 * - `auth_attempts` replaces `login_attempts`: one row per log-in or sign-up attempt, written
 *   before the password is checked (a reservation), keyed by e-mail and client address so the
 *   hard limits can be per (e-mail, address) and per address. The old rows are only throttle
 *   history and are dropped.
 * - `throttle_locks`: one row per throttled e-mail or address, locked (upserted) at the start of
 *   the reserving transaction so concurrent attempts on any number of processes count one by one.
 * - `signup_requests`: sign-ups waiting for their e-mail link (SIGNUP=open); only token hashes.
 * - `alert_email_confirmations`: alert addresses added in the dashboard that have not been
 *   confirmed yet. An address on `accounts.alert_emails` without a row here is confirmed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("login_attempts").execute();

  await db.schema
    .createTable("auth_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("ip", "text", (c) => c.notNull())
    .addColumn("attempted_at", "bigint", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("email_forgiven", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("auth_attempts_email_idx")
    .on("auth_attempts")
    .columns(["action", "email", "attempted_at"])
    .execute();
  await db.schema
    .createIndex("auth_attempts_ip_idx")
    .on("auth_attempts")
    .columns(["action", "ip", "attempted_at"])
    .execute();
  await db.schema
    .createIndex("auth_attempts_time_idx")
    .on("auth_attempts")
    .column("attempted_at")
    .execute();

  await db.schema
    .createTable("throttle_locks")
    .addColumn("key", "text", (c) => c.primaryKey())
    .addColumn("touched_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("signup_requests")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("store_name", "text", (c) => c.notNull())
    .addColumn("password_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("used_at", "bigint")
    .execute();
  await db.schema
    .createIndex("signup_requests_expires_idx")
    .on("signup_requests")
    .column("expires_at")
    .execute();

  await db.schema
    .createTable("alert_email_confirmations")
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("email_normalized", "text", (c) => c.notNull())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .addColumn("sent_at", "bigint", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("alert_email_confirmations_pk", ["account_id", "email_normalized"])
    .execute();
}
