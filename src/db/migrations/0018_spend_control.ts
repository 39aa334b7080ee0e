import type { Kysely } from "kysely";

/**
 * What enrichment providers billed (features/billing/provider-spend.ts).
 * - `provider_spend`: one row per account, calendar month (UTC, `YYYY-MM`) and provider: how
 *   many lookups the provider billed and their cost in micro-dollars, each added at the price in
 *   force when it was made. No customer and nothing about a person: erasure leaves it as it is,
 *   like `usage_charges`.
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
}
