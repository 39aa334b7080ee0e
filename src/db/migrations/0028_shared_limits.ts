import type { Kysely } from "kysely";

/**
 * The limits Velvet keeps for someone else, shared by every process on the database
 * (features/shared-limits). One row per budget, keyed by name (`provider:pdl`,
 * `chat:<sha-256 of the webhook URL>`, `key:<api key id>`); a row holds one of two kinds:
 * - slots: `next_at`, the instant (epoch ms) of the next free slot; `granted_at`, the first slot
 *   of the last lease handed out (-1 when the last ask was refused);
 * - window: `window_ends_at` and `used`, the requests leased in that window; `granted`, the size
 *   of the last lease.
 * `expires_at` is when the row stops mattering; rows past it are swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("shared_limits")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("next_at", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("granted_at", "bigint", (c) => c.notNull().defaultTo(-1))
    .addColumn("window_ends_at", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("used", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("granted", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("expires_at", "bigint", (c) => c.notNull())
    .execute();
}
