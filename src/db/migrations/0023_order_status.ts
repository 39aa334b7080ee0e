import type { Kysely } from "kysely";

/**
 * Order statuses (features/store-sync/order-status.ts):
 * - `orders.status`: the platform's word for the order (`paid`, `processing`, `cancelled`,
 *   `refunded` …); null for an order whose source says none (the API, a file import).
 * - `orders.counts`: 1 when the order is a purchase, 0 when it was cancelled, refunded in full,
 *   voided or binned. Integer 0/1 on both engines, as `stores.sample` (0022). Every existing
 *   order counts: nothing said otherwise before.
 * - `orders.status_at`: the platform's update time (epoch ms) of the status held, so an older
 *   update read late never overwrites a newer one; null when no platform said a status.
 *
 * The enrichment counts a customer's purchases (`customer_id = ? and counts = 1`) on every
 * enrichment, index-only today on (customer_id, created_at, id) (0006). With `counts` only in
 * the table that count would read every order's row; so the index gains `counts` after
 * `customer_id` and replaces the old one (order intake still writes one B-tree for it). The
 * latest purchase (`customer_id = ? and counts = 1 order by created_at desc, id desc`) walks it
 * in order as before. Listing all of a customer's orders (the dashboard, privacy) still finds
 * them by the `customer_id` prefix; a customer's few orders are then sorted.
 * The store's window (store_id, created_at, id) already reads each row for its currency and
 * total: `counts` is read from the same row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // One column per statement: SQLite's ALTER TABLE adds one at a time.
  await db.schema.alterTable("orders").addColumn("status", "text").execute();
  await db.schema
    .alterTable("orders")
    .addColumn("counts", "integer", (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("orders").addColumn("status_at", "bigint").execute();
  await db.schema
    .createIndex("orders_customer_counts_created_idx")
    .on("orders")
    .columns(["customer_id", "counts", "created_at", "id"])
    .execute();
  await db.schema.dropIndex("orders_customer_created_idx").execute();
}
