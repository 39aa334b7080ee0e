import type { Kysely } from "kysely";

/** Alert settings on the account, one alert per customer and channel, and every attempt. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("accounts").addColumn("slack_webhook_url", "text").execute();
  await db.schema.alterTable("accounts").addColumn("alert_emails", "text").execute();

  await db.schema
    .createTable("alerts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id"))
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull())
    .addColumn("score", "integer", (c) => c.notNull())
    .addColumn("threshold", "integer", (c) => c.notNull())
    .addColumn("message_id", "text", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("delivered_at", "bigint")
    .addUniqueConstraint("alerts_customer_channel_uq", ["customer_id", "channel"])
    .execute();
  await db.schema
    .createIndex("alerts_account_created_idx")
    .on("alerts")
    .columns(["account_id", "created_at"])
    .execute();

  await db.schema
    .createTable("alert_attempts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("alert_id", "text", (c) => c.notNull().references("alerts.id"))
    .addColumn("attempted_at", "bigint", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("status_code", "integer")
    .addColumn("error", "text")
    .addColumn("duration_ms", "integer", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("alert_attempts_alert_idx")
    .on("alert_attempts")
    .column("alert_id")
    .execute();
}
