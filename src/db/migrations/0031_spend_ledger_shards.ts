import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * The provider spend ledger in shards, and the month's spend read from it
 * (features/billing/provider-spend.ts, month-spend.ts).
 * - `provider_spend.shard`: each account, month and provider has up to 16 rows, and an
 *   enrichment adds to one of them. Every enrichment of an account adds to its month's rows, and
 *   on PostgreSQL a row stays locked until the adding transaction commits: with one row per
 *   provider, the account's enrichments stored one at a time. Existing rows become shard 0.
 *   Reads sum the shards.
 * - `budget_months.spent_micros` is dropped: it was a second copy of the ledger's sum, written
 *   in the same transaction as the ledger, so the ledger alone says what a month spent.
 *   `budget_months` keeps what only it holds: what paid lookups in flight have reserved, and
 *   which budget notices were sent.
 * SQLite cannot change a primary key: the table is rebuilt, inside the migration's transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table provider_spend add column shard integer not null default 0`.execute(db);
    await sql`alter table provider_spend drop constraint provider_spend_pk`.execute(db);
    await sql`alter table provider_spend add constraint provider_spend_pk
      primary key (account_id, month, provider, shard)`.execute(db);
  } else {
    await rebuildProviderSpendOnSqlite(db);
  }
  await db.schema.alterTable("budget_months").dropColumn("spent_micros").execute();
}

async function rebuildProviderSpendOnSqlite(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("provider_spend_new")
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("month", "text", (c) => c.notNull())
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("shard", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("lookups", "bigint", (c) => c.notNull())
    .addColumn("amount_micros", "bigint", (c) => c.notNull())
    .addColumn("updated_at", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("provider_spend_pk", ["account_id", "month", "provider", "shard"])
    .execute();
  await sql`insert into provider_spend_new
      (account_id, month, provider, shard, lookups, amount_micros, updated_at)
    select account_id, month, provider, 0, lookups, amount_micros, updated_at
    from provider_spend`.execute(db);
  await db.schema.dropTable("provider_spend").execute();
  await sql`alter table provider_spend_new rename to provider_spend`.execute(db);
}
