import type { Kysely } from "kysely";

/** Enrichment results, each provider's raw answer, and the ZIP-code income reference data. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("enrichments")
    .addColumn("customer_id", "text", (c) => c.primaryKey().references("customers.id"))
    .addColumn("score", "integer")
    .addColumn("vip", "integer")
    .addColumn("threshold", "integer")
    .addColumn("signals", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("profile", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("last_error", "text")
    .addColumn("started_at", "bigint")
    .addColumn("enriched_at", "bigint")
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("enrichments_score_idx").on("enrichments").column("score").execute();

  await db.schema
    .createTable("provider_results")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("customer_id", "text", (c) => c.notNull().references("customers.id"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("outcome", "text", (c) => c.notNull())
    .addColumn("http_status", "integer")
    .addColumn("raw", "text")
    .addColumn("profile", "text")
    .addColumn("error", "text")
    .addColumn("fetched_at", "bigint", (c) => c.notNull())
    .addUniqueConstraint("provider_results_customer_provider_uq", ["customer_id", "provider"])
    .execute();

  await db.schema
    .createTable("zip_incomes")
    .addColumn("zcta", "text", (c) => c.primaryKey())
    .addColumn("median_household_income", "integer", (c) => c.notNull())
    .addColumn("margin_of_error", "integer")
    .execute();
}
