import { type Kysely, sql } from "kysely";

/**
 * Stores as the platforms behave (features/store-sync, order-import, privacy):
 * - `customers.shopify_customer_id`: the Shopify customer's GID (`gid://shopify/Customer/…`) of
 *   the latest order synced from Shopify for this customer, so that a feature writing back to
 *   Shopify (a tag on the customer) knows whom to write to; null for customers from elsewhere.
 * - `store_connections.skip_reasons`: JSON `{reason: count}` of the orders a sync did not take
 *   (test orders, unpaid orders, forgotten people, orders the API would refuse).
 * - `forgotten_orders`: per store, a keyed hash (HMAC-SHA256) of each order id that belonged to a
 *   forgotten customer, so that neither a sync pass nor a file import takes those orders again.
 *   Never the order id itself, never the e-mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("customers").addColumn("shopify_customer_id", "text").execute();
  await db.schema
    .alterTable("store_connections")
    .addColumn("skip_reasons", "text", (c) => c.notNull().defaultTo(sql`'{}'`))
    .execute();
  await db.schema
    .createTable("forgotten_orders")
    .addColumn("store_id", "text", (c) => c.notNull().references("stores.id"))
    .addColumn("order_hash", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("forgotten_orders_pkey", ["store_id", "order_hash"])
    .execute();
}
