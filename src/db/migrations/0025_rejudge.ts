import { type Kysely, sql } from "kysely";

/**
 * Re-judging a known customer on later orders (features/enrichment/rejudge/):
 * - `enrichments.vip_since`: when the customer became the VIP they are now (their enrichment, or
 *   the re-judge that promoted them); null while not a VIP. Existing VIPs were VIPs from their
 *   enrichment on: `enriched_at`.
 * - `enrichments.vip_changed_at`, `vip_change_reason`: the last time a re-judge changed the VIP
 *   decision, and why in words ("now a VIP: $3,020 over 21 orders"); null until one does.
 * - `enrichments.rejudged_at`: the last re-judge that stored a score (null: the enrichment's).
 * - `rejudge_cursors`: how far the periodic re-judge has read the orders received (by order id,
 *   a time-ordered UUIDv7): one row per cursor name.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable("enrichments").addColumn("vip_since", "bigint").execute();
  await db.schema.alterTable("enrichments").addColumn("vip_changed_at", "bigint").execute();
  await db.schema.alterTable("enrichments").addColumn("vip_change_reason", "text").execute();
  await db.schema.alterTable("enrichments").addColumn("rejudged_at", "bigint").execute();
  await sql`update enrichments set vip_since = enriched_at where vip = 1`.execute(db);
  await db.schema
    .createTable("rejudge_cursors")
    .addColumn("name", "text", (c) => c.primaryKey())
    .addColumn("last_order_id", "text", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
}
