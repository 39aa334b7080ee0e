import type { Kysely } from "kysely";

/**
 * The enrichment's order-history reads (features/enrichment/offline) straight from an index,
 * in the order they ask for. With indexes on customer_id and (store_id, created_at) only,
 * SQLite sorted in a temporary B-tree on every enrichment: the customer's orders for the
 * latest one, and the store's recent orders by (created_at, id) for the store comparison.
 * Adding the tie-breaking columns lets both walk their index instead. Each new index serves
 * every query the one it replaces did, so it replaces it: order intake writes no extra B-tree.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("orders_customer_created_idx")
    .on("orders")
    .columns(["customer_id", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("orders_customer_idx").execute();
  await db.schema
    .createIndex("orders_store_created_id_idx")
    .on("orders")
    .columns(["store_id", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("orders_store_created_idx").execute();
}
