import { type Kysely, sql } from "kysely";

/** Accounts, stores, keys, customers, orders, usage charges and the job outbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("accounts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("vip_threshold", "integer", (c) => c.notNull().defaultTo(70))
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_normalized", "text", (c) => c.notNull().unique())
    .addColumn("password_hash", "text")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("users_account_idx").on("users").column("account_id").execute();

  await db.schema
    .createTable("stores")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("stores_account_idx").on("stores").column("account_id").execute();

  await db.schema
    .createTable("api_keys")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("store_id", "text", (c) => c.notNull().references("stores.id"))
    .addColumn("key_hash", "text", (c) => c.notNull().unique())
    .addColumn("last4", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("revoked_at", "bigint")
    .addColumn("last_used_at", "bigint")
    .execute();
  await db.schema.createIndex("api_keys_store_idx").on("api_keys").column("store_id").execute();

  await db.schema
    .createTable("customers")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("store_id", "text", (c) => c.notNull().references("stores.id"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("email_normalized", "text", (c) => c.notNull())
    .addColumn("first_name", "text", (c) => c.notNull())
    .addColumn("last_name", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("address_city", "text")
    .addColumn("address_state", "text")
    .addColumn("address_zipcode", "text")
    .addColumn("address_country", "text")
    .addColumn("enrichment_status", "text", (c) =>
      c.notNull().check(sql`enrichment_status in ('pending', 'enriched', 'failed')`),
    )
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("customers_store_email_uq", ["store_id", "email_normalized"])
    .execute();
  await db.schema
    .createIndex("customers_store_created_idx")
    .on("customers")
    .columns(["store_id", "created_at"])
    .execute();

  await db.schema
    .createTable("orders")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("store_id", "text", (c) => c.notNull().references("stores.id"))
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id"))
    .addColumn("external_order_id", "text")
    .addColumn("order_number", "text")
    .addColumn("total", "text")
    .addColumn("currency", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("orders_store_external_uq", ["store_id", "external_order_id"])
    .execute();
  await db.schema.createIndex("orders_customer_idx").on("orders").column("customer_id").execute();
  await db.schema
    .createIndex("orders_store_created_idx")
    .on("orders")
    .columns(["store_id", "created_at"])
    .execute();

  await db.schema
    .createTable("usage_charges")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("store_id", "text", (c) => c.notNull().references("stores.id"))
    .addColumn("customer_id", "text", (c) => c.notNull().unique().references("customers.id"))
    .addColumn("unit_price_usd", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("usage_charges_account_created_idx")
    .on("usage_charges")
    .columns(["account_id", "created_at"])
    .execute();

  await db.schema
    .createTable("jobs")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("task", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("job_key", "text", (c) => c.unique())
    .addColumn("run_at", "bigint", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("max_attempts", "integer", (c) => c.notNull())
    .addColumn("last_error", "text")
    .addColumn("locked_by", "text")
    .addColumn("locked_until", "bigint")
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("jobs_run_at_idx").on("jobs").column("run_at").execute();
}
