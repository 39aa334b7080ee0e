import { type Kysely, sql } from "kysely";
import { newId } from "../../lib/ids.js";

/**
 * Sample data in a store of its own (features/demo/sample-store.ts):
 * - `stores.sample`: 1 for the account's sample store, where `velvet demo` and "Try it with
 *   sample orders" put the generated history; 0 for the account's real store. At most one
 *   sample store per account (a partial unique index). A store's order history, its customers
 *   (unique per store and e-mail) and its API keys are its own, so sample orders never rank a
 *   real order, never merge with a real customer, and no API key writes to them.
 *
 * Existing sample rows (customers.sample = 1 in the real store, 0018) are sorted out:
 * - A sample order is one the generated history made: its id starts with `sample-` and its
 *   customer's address is at a domain reserved for examples (example.com, .org, .net).
 * - A sample customer whose orders are all sample orders moves, orders and all, to the account's
 *   new sample store.
 * - A sample customer who also has a real order (a real order for a sample address merged into
 *   it) becomes a real customer: it keeps its real orders, loses its sample ones, and its
 *   enrichment is queued again (as history: no alert) so the providers are asked and the score
 *   reads only real orders. It is not billed now: Velvet does not bill after the fact.
 * - A real customer loses the sample orders that were attached to it (its address matched a
 *   sample one); its own orders stay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("stores")
    .addColumn("sample", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("stores_one_sample_per_account_idx")
    .unique()
    .on("stores")
    .column("account_id")
    .where(sql.ref("sample"), "=", 1)
    .execute();

  const now = Date.now();
  const sampleOrder = (order: string, customer: string) =>
    sql`(coalesce(${sql.ref(`${order}.external_order_id`)}, '') like 'sample-%' and (${sql.join(
      ["example.com", "example.org", "example.net"].map(
        (domain) => sql`${sql.ref(`${customer}.email_normalized`)} like ${`%@${domain}`}`,
      ),
      sql` or `,
    )}))`;

  // Sample customers with a real order: real from now on.
  const merged = await sql<{ id: string }>`
    select c.id from customers c
    where c.sample = 1 and exists (
      select 1 from orders o where o.customer_id = c.id and not ${sampleOrder("o", "c")}
    )`.execute(db);
  for (const { id } of merged.rows) await makeReal(db, id, now);

  // Every real customer's sample orders go (those of the customers just made real included).
  await sql`
    delete from orders where id in (
      select o.id from orders o join customers c on c.id = o.customer_id
      where c.sample = 0 and ${sampleOrder("o", "c")}
    )`.execute(db);

  // The rest of the sample customers move, with their orders, to their account's sample store.
  const accounts = await sql<{ account_id: string }>`
    select distinct s.account_id from customers c join stores s on s.id = c.store_id
    where c.sample = 1`.execute(db);
  for (const { account_id: accountId } of accounts.rows) {
    const storeId = newId(now);
    await sql`
      insert into stores (id, account_id, name, created_at, sample)
      values (${storeId}, ${accountId}, 'Sample orders', ${now}, 1)`.execute(db);
    await sql`
      update customers set store_id = ${storeId}
      where sample = 1 and store_id in (
        select id from stores where account_id = ${accountId} and sample = 0
      )`.execute(db);
    await sql`
      update orders set store_id = ${storeId}
      where customer_id in (select id from customers where store_id = ${storeId})`.execute(db);
  }
}

/**
 * The enrichment job as features/enrichment/enqueue-enrichment.ts writes it for an imported
 * history (`alerts: false`, backfill priority 1, the default 3 attempts: a migration reads no
 * configuration); an existing row not leased right now starts again like a new one, as
 * jobs/enqueue-job.ts revives a key (due now, no attempt, no error, no lease).
 */
async function makeReal(db: Kysely<unknown>, customerId: string, now: number): Promise<void> {
  await sql`
    update customers set sample = 0, enrichment_status = 'pending', updated_at = ${now}
    where id = ${customerId}`.execute(db);
  const payload = JSON.stringify({ customerId, alerts: false });
  await sql`
    insert into jobs (id, task, payload, job_key, run_at, priority, attempts, max_attempts,
      created_at, updated_at)
    values (${newId(now)}, 'enrich-customer', ${payload}, ${`enrich-customer:${customerId}`},
      ${now}, 1, 0, 3, ${now}, ${now})
    on conflict (job_key) do update set task = 'enrich-customer', payload = ${payload},
      run_at = ${now}, attempts = 0, max_attempts = 3, priority = 1, last_error = null,
      locked_by = null, locked_until = null, request_id = null, updated_at = ${now}
      where jobs.locked_until is null or jobs.locked_until < ${now}`.execute(db);
}
