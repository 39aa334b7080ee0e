import { type Kysely, sql } from "kysely";

/**
 * Orders pushed by the stores (features/store-webhooks).
 * - `store_connections.webhooks`: `off` (Velvet holds no subscription: no public address, no
 *   signing secret, a key that may not create webhooks), `active` (subscribed; polling runs as
 *   reconciliation at the long interval) or `failing` (a subscription is gone or disabled, or a
 *   reconciliation pass found an order no delivery brought: polling is back at the short
 *   interval until a verified delivery arrives). `webhook_note` says why, in words shown on the
 *   Stores page and by `velvet store list`; `webhook_ids` (JSON array) are the platform's ids of
 *   Velvet's subscriptions, removed with the connection; `webhook_last_at` is the latest
 *   verified delivery; `webhook_checked_at` the latest look at the platform's subscriptions.
 * - `store_events`: one row per verified delivery, unique per connection and the platform's
 *   delivery id, so a delivery seen before changes nothing. `body` is the raw payload until the
 *   `store-event` job has taken the order (then null: no customer data is kept here).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("store_connections")
    .addColumn("webhooks", "text", (c) =>
      c.notNull().defaultTo("off").check(sql`webhooks in ('off', 'active', 'failing')`),
    )
    .execute();
  await db.schema.alterTable("store_connections").addColumn("webhook_note", "text").execute();
  await db.schema
    .alterTable("store_connections")
    .addColumn("webhook_ids", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
  await db.schema.alterTable("store_connections").addColumn("webhook_last_at", "bigint").execute();
  await db.schema
    .alterTable("store_connections")
    .addColumn("webhook_checked_at", "bigint")
    .execute();
  await db.schema
    .createTable("store_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("connection_id", "text", (c) => c.notNull().references("store_connections.id"))
    .addColumn("delivery_id", "text", (c) => c.notNull())
    .addColumn("topic", "text", (c) => c.notNull())
    .addColumn("body", "text")
    .addColumn("received_at", "bigint", (c) => c.notNull())
    .addColumn("processed_at", "bigint")
    .addColumn("outcome", "text")
    .addUniqueConstraint("store_events_delivery_key", ["connection_id", "delivery_id"])
    .execute();
  await db.schema
    .createIndex("store_events_received_idx")
    .on("store_events")
    .columns(["connection_id", "received_at"])
    .execute();
}
