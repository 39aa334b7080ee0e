import { type Kysely, sql } from "kysely";

/**
 * Destinations (features/destinations): where Velvet hands on what it learns about a customer
 * (a signed webhook, a CRM profile), per account, and every delivery to them.
 * - `destinations.secret`: the webhook's signing secret or the API key, sealed under
 *   STORE_TOKEN_KEY (lib/sealer.ts); `secret_hint` its last 4 characters, all that is shown.
 * - `destination_deliveries`: one row per event and destination, unique by `event_key`, written
 *   with its job in the event's transaction (the outbox): exactly one delivery per event and
 *   destination. `body` is the exact JSON sent on every attempt (so a retry carries the same
 *   bytes under the same id); `customer_id` is null once the person is forgotten.
 * - `destination_attempts`: every attempt, for the dashboard's log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("destinations")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("settings", "text", (c) => c.notNull())
    .addColumn("secret", "text")
    .addColumn("secret_hint", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("destinations_account_idx")
    .on("destinations")
    .column("account_id")
    .execute();

  await db.schema
    .createTable("destination_deliveries")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("destination_id", "text", (c) => c.notNull().references("destinations.id"))
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("customer_id", "text", (c) => c.references("customers.id"))
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("event_key", "text", (c) => c.notNull())
    .addColumn("historical", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("body", "text")
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending', 'delivered', 'failed')`),
    )
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("delivered_at", "bigint")
    .addUniqueConstraint("destination_deliveries_event_uq", ["destination_id", "event_key"])
    .execute();
  await db.schema
    .createIndex("destination_deliveries_customer_idx")
    .on("destination_deliveries")
    .column("customer_id")
    .execute();
  await db.schema
    .createIndex("destination_deliveries_account_created_idx")
    .on("destination_deliveries")
    .columns(["account_id", "created_at"])
    .execute();

  await db.schema
    .createTable("destination_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("delivery_id", "text", (c) => c.notNull().references("destination_deliveries.id"))
    .addColumn("attempted_at", "bigint", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("destination_attempts_delivery_idx")
    .on("destination_attempts")
    .column("delivery_id")
    .execute();
}
