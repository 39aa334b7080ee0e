import { type Kysely, sql } from "kysely";

/**
 * Outages survived rather than suffered:
 * - `readiness_probe`: one row that GET /readyz rewrites (at most every few seconds per
 *   process), so readiness is red while the database cannot write (a full disk), not only while
 *   it cannot answer a `select 1`; `ballast` is what the write carries on SQLite
 *   (features/health/database-health.ts says why).
 * - `alert_channel_outages`: an account's alert channel that is failing, since when, and when
 *   its owner was told (once per outage, after an hour); the row goes when a delivery succeeds.
 * - Alert jobs retry for a window of time (24 hours) instead of 10 attempts: the jobs still
 *   running get the new bound on attempts, a backstop well above what the window needs.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("readiness_probe")
    .addColumn("id", "integer", (c) => c.primaryKey())
    .addColumn("probed_at", "bigint", (c) => c.notNull())
    .addColumn("ballast", "text")
    .execute();
  await db.schema
    .createTable("alert_channel_outages")
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("failing_since", "bigint", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("owner_notified_at", "bigint")
    .addPrimaryKeyConstraint("alert_channel_outages_pk", ["account_id", "channel"])
    .execute();
  await sql`
    update jobs set max_attempts = 500
    where task in ('deliver-chat-alert', 'deliver-email-alert') and attempts < max_attempts
  `.execute(db);
}
