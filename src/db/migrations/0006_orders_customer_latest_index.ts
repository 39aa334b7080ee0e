import type { Kysely } from "kysely";

/**
 * A customer's orders newest first, from the index alone: the enrichment's latest-order signal
 * (offline/order-history.ts) asks for exactly that on every enrichment, and with an index on
 * customer_id only, SQLite sorted the customer's orders in a temporary B-tree each time (about
 * 100 µs, the dearest read of an enrichment). The new index also serves every lookup by
 * customer_id, so it replaces the old one: no extra B-tree to write on order intake.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("orders_customer_created_idx")
    .on("orders")
    .columns(["customer_id", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("orders_customer_idx").execute();
}
