import type { Kysely } from "kysely";

/**
 * The euro foreign exchange reference rates the order-value signal converts other currencies to
 * US dollars with (features/exchange-rates). One row per currency: the latest published day's
 * rate, `per_eur` units of the currency for one euro, as the publisher wrote it (a decimal
 * string: money is never a float here), with that day (`rate_date`, YYYY-MM-DD), who published it
 * (`source`, "ECB") and when Velvet stored it. A day replaces the previous one whole.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("exchange_rates")
    .addColumn("currency", "text", (c) => c.primaryKey())
    .addColumn("per_eur", "text", (c) => c.notNull())
    .addColumn("rate_date", "text", (c) => c.notNull())
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("stored_at", "bigint", (c) => c.notNull())
    .execute();
}
