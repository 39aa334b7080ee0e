import type { Kysely } from "kysely";

/**
 * Tiers (features/customers/tiers.ts): `accounts.tiers` holds the account's named score floors
 * as JSON, `[{"name": "Gold", "floor": 90}, …]`, highest floor first; `[]` (every existing
 * account) names none. The VIP threshold stays the VIP line: tiers only name score ranges.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("accounts")
    .addColumn("tiers", "text", (c) => c.notNull().defaultTo("[]"))
    .execute();
}
