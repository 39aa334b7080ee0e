import type { Kysely } from "kysely";

/**
 * Sample data: `customers.sample` is 1 for a customer of the generated store history that
 * `velvet demo` and the Overview's "Try it with sample orders" import (never billed, never
 * alerted, removed together); 0 for every real customer, those already stored included.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("customers")
    .addColumn("sample", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}
