import { type Kysely, sql } from "kysely";

/**
 * People's data (README "People's data"):
 * - a charge outlives the customer it was for: `usage_charges.customer_id` becomes nullable (the
 *   unique constraint stays; NULLs never collide), so an erasure keeps amount, price and month;
 * - `provider_results.raw_cleared_at` says when retention removed a raw answer, with an index
 *   on `fetched_at` for the retention job to find old answers in small batches;
 * - `accounts.closed_at`;
 * - `audit_events`, append-only: the database refuses UPDATE and DELETE on it.
 */
/** Both engines run a migration in one transaction (db/connect.ts), table rebuild included. */
export async function up(db: Kysely<unknown>): Promise<void> {
  return change(db, await isPostgres(db));
}

async function change(db: Kysely<unknown>, postgres: boolean): Promise<void> {
  if (postgres) {
    await sql`alter table usage_charges alter column customer_id drop not null`.execute(db);
  } else {
    await rebuildUsageChargesOnSqlite(db);
  }

  await db.schema.alterTable("provider_results").addColumn("raw_cleared_at", "bigint").execute();
  await db.schema
    .createIndex("provider_results_fetched_idx")
    .on("provider_results")
    .column("fetched_at")
    .execute();
  await db.schema.alterTable("accounts").addColumn("closed_at", "bigint").execute();
  // Customer retention looks for customers by age, then checks their latest order.
  await db.schema
    .createIndex("customers_created_idx")
    .on("customers")
    .column("created_at")
    .execute();

  await db.schema
    .createTable("audit_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("occurred_at", "bigint", (c) => c.notNull())
    .addColumn("actor_kind", "text", (c) =>
      c.notNull().check(sql`actor_kind in ('user', 'cli', 'system')`),
    )
    .addColumn("actor", "text", (c) => c.notNull())
    .addColumn("action", "text", (c) => c.notNull())
    .addColumn("subject", "text")
    .addColumn("details", "text")
    .execute();
  await db.schema
    .createIndex("audit_events_account_idx")
    .on("audit_events")
    .columns(["account_id", "occurred_at"])
    .execute();

  if (postgres) {
    await sql`create function audit_events_append_only() returns trigger language plpgsql as $$
      begin raise exception 'audit_events is append-only'; end $$`.execute(db);
    await sql`create trigger audit_events_append_only before update or delete on audit_events
      for each row execute function audit_events_append_only()`.execute(db);
  } else {
    for (const op of ["update", "delete"]) {
      await sql
        .raw(`create trigger audit_events_no_${op} before ${op} on audit_events
          begin select raise(abort, 'audit_events is append-only'); end`)
        .execute(db);
    }
  }
}

/** `version()` exists on PostgreSQL only; on SQLite the failed statement changes nothing. */
async function isPostgres(db: Kysely<unknown>): Promise<boolean> {
  try {
    await sql`select version()`.execute(db);
    return true;
  } catch {
    return false;
  }
}

/** SQLite cannot drop a NOT NULL: the table is rebuilt, inside the migration's transaction. */
async function rebuildUsageChargesOnSqlite(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("usage_charges_new")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("store_id", "text", (c) => c.notNull().references("stores.id"))
    .addColumn("customer_id", "text", (c) => c.unique().references("customers.id"))
    .addColumn("unit_price_usd", "text", (c) => c.notNull())
    .addColumn("created_at", "bigint", (c) => c.notNull())
    .execute();
  await sql`insert into usage_charges_new (id, account_id, store_id, customer_id, unit_price_usd, created_at)
    select id, account_id, store_id, customer_id, unit_price_usd, created_at from usage_charges`.execute(
    db,
  );
  await db.schema.dropTable("usage_charges").execute();
  await sql`alter table usage_charges_new rename to usage_charges`.execute(db);
  await db.schema
    .createIndex("usage_charges_account_created_idx")
    .on("usage_charges")
    .columns(["account_id", "created_at"])
    .execute();
}
