import { type Kysely, sql } from "kysely";

/**
 * What enrichment providers billed (features/billing/provider-spend.ts).
 * - `provider_spend`: one row per account, calendar month (UTC, `YYYY-MM`) and provider: how
 *   many lookups the provider billed and their cost in micro-dollars, each added at the price in
 *   force when it was made. No customer and nothing about a person: erasure leaves it as it is,
 *   like `usage_charges`.
 * - `accounts.monthly_budget_usd`: the account's monthly budget for paid lookups (null: none).
 * - `budget_months`: per account and month, what paid lookups in flight have reserved and what
 *   the finished ones spent (micro-dollars); a reservation is one conditional UPDATE, so the
 *   budget holds across any number of workers. `notified_80` / `notified_100`: the owner was told.
 * - `enrichments.paid_lookups_deferred`: non-zero while a customer was scored without the paid
 *   lookups the budget stopped (1 a live customer, 2 one from an imported history); they are
 *   looked up fully when the budget allows.
 * - `provider_results.confidence`: how sure the provider was of a match ("likelihood 9/10"),
 *   carried onto the score's explanation.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("provider_spend")
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("lookups", "bigint", (c) => c.notNull())
    .addColumn("amount_micros", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("provider_spend_pk", ["account_id", "month", "provider"])
    .execute();
  await db.schema.alterTable("accounts").addColumn("monthly_budget_usd", "text").execute();
  await db.schema
    .createTable("budget_months")
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("reserved_micros", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("spent_micros", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("notified_80", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("notified_100", "integer", (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint("budget_months_pk", ["account_id", "month"])
    .addCheckConstraint("budget_months_reserved_ck", sql`reserved_micros >= 0`)
    .execute();
  await db.schema
    .alterTable("enrichments")
    .addColumn("paid_lookups_deferred", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("enrichments_deferred_idx")
    .on("enrichments")
    .column("customer_id")
    .where(sql.ref("paid_lookups_deferred"), "<>", 0)
    .execute();
  await db.schema.alterTable("provider_results").addColumn("confidence", "text").execute();
}
