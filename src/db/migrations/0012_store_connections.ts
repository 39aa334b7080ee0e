import { type Kysely, sql } from "kysely";

/**
 * Store connections (features/store-sync): a Shopify or WooCommerce store whose orders Velvet
 * pulls through the platform's API, one sync job per connection.
 * - `credentials`: the token (Shopify) or consumer key and secret (WooCommerce), encrypted with
 *   AES-256-GCM under STORE_TOKEN_KEY; `credentials_hint` is what people see (last 4 characters).
 * - `cursor`: where the next sync starts (JSON, per platform), written in the same transaction as
 *   the orders it covers, so a crash mid-sync loses and duplicates nothing.
 * - `live_after`: orders created before it are history (no VIP alert, backfill priority).
 * - One connection per store and shop: connecting the same shop again replaces its credentials.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("store_connections")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("store_id", "text", (c) => c.notNull().references("stores.id"))
    .addColumn("platform", "text", (c) =>
      c.notNull().check(sql`platform in ('shopify', 'woocommerce')`),
    )
    .addColumn("shop", "text", (c) => c.notNull())
    .addColumn("credentials", "text", (c) => c.notNull())
    .addColumn("credentials_hint", "text", (c) => c.notNull())
    .addColumn("state", "text", (c) =>
      c.notNull().check(sql`state in ('active', 'paused', 'broken')`),
    )
    .addColumn("cursor", "text", (c) => c.notNull())
    .addColumn("live_after", "bigint", (c) => c.notNull())
    .addColumn("last_sync_at", "bigint")
    .addColumn("orders_synced", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("orders_skipped", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("failures", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("store_connections_shop_key", ["store_id", "platform", "shop"])
    .execute();
  await db.schema
    .createIndex("store_connections_account_idx")
    .on("store_connections")
    .column("account_id")
    .execute();
}
