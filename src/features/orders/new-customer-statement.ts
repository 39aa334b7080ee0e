/**
 * PostgreSQL: new customers' whole submissions in ONE statement (issue 14), for one submission
 * or a batch of them (new-customer-batches.ts groups the submissions that arrive while the
 * database is busy). A single statement is its own transaction, so it is all-or-nothing and
 * answered only after its commit, and it costs one round trip, one pool checkout and one commit
 * however many customers it carries.
 *
 * It writes a submission only when its customer is new. When the store already has that e-mail
 * (or an earlier submission of the same batch has it) the customer insert skips it, so nothing
 * else of that submission is written, and the caller sends it to the general transaction
 * (submit-order.ts), which handles existing customers. Orders are plain inserts: an order id the
 * store already has fails the whole statement with a unique violation and nothing at all is
 * written; the caller then runs each submission alone. Every uniqueness rule stays a database
 * constraint; the job and charge rows are exactly what enqueueEnrichment and chargeEnrichment
 * write.
 */
import { CompiledQuery } from "kysely";
import type { Db } from "../../db/connect.js";
import { nameStatement } from "../../db/named-statements.js";
import { newId } from "../../lib/ids.js";
import { type EnrichmentOptions, enrichmentJob } from "../enrichment/enqueue-enrichment.js";
import { customerColumns } from "./customer-columns.js";
import type { OrderSubmission } from "./order-request.js";

/** One array parameter per column, zipped back into rows by unnest (in this order). */
const COLUMNS = [
  ["customer_id", "text"],
  ["store_id", "text"],
  ["email", "text"],
  ["email_normalized", "text"],
  ["first_name", "text"],
  ["last_name", "text"],
  ["phone", "text"],
  ["address_city", "text"],
  ["address_state", "text"],
  ["address_zipcode", "text"],
  ["address_country", "text"],
  ["dated_at", "bigint"],
  ["now", "bigint"],
  ["job_id", "text"],
  ["job_key", "text"],
  ["task", "text"],
  ["payload", "text"],
  ["max_attempts", "integer"],
  ["priority", "integer"],
  ["request_id", "text"],
  ["charge_id", "text"],
  ["account_id", "text"],
  ["unit_price_usd", "text"],
  ["order_id", "text"],
  ["external_order_id", "text"],
  ["order_number", "text"],
  ["total", "text"],
  ["currency", "text"],
] as const;

type Column = (typeof COLUMNS)[number][0];

const NEW_CUSTOMERS_SQL = `
with input as (
  select * from unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ")})
    as input(${COLUMNS.map(([name]) => name).join(", ")})
), customer as (
  -- The customers whose e-mail the store does not have yet; a skipped one writes nothing below
  -- (each part joins on the customers inserted here).
  insert into customers (id, store_id, email, email_normalized, first_name, last_name, phone,
    address_city, address_state, address_zipcode, address_country, enrichment_status,
    created_at, updated_at)
  select customer_id, store_id, email, email_normalized, first_name, last_name, phone,
    address_city, address_state, address_zipcode, address_country, 'pending', dated_at, now
  from input
  on conflict (store_id, email_normalized) do nothing
  returning id
), job as (
  -- Their enrichment jobs in the outbox, due now (as jobs/enqueue-job.ts writes a new one).
  insert into jobs (id, job_key, created_at, task, payload, run_at, attempts, max_attempts,
    priority, last_error, locked_by, locked_until, request_id, updated_at)
  select job_id, job_key, now, task, payload, now, 0, max_attempts, priority, null, null, null,
    request_id, now
  from input join customer on customer.id = input.customer_id
), charge as (
  -- Their one usage charge each.
  insert into usage_charges (id, account_id, store_id, customer_id, unit_price_usd, created_at)
  select charge_id, account_id, store_id, customer_id, unit_price_usd, now
  from input join customer on customer.id = input.customer_id
), new_order as (
  -- Their orders, for the submissions that have one; a taken order id fails the statement.
  insert into orders (id, store_id, customer_id, external_order_id, order_number, total,
    currency, created_at)
  select order_id, store_id, customer_id, external_order_id, order_number, total, currency,
    dated_at
  from input join customer on customer.id = input.customer_id
  where order_id is not null
)
select id as customer_id from customer`;
nameStatement(NEW_CUSTOMERS_SQL);

export interface NewCustomerWrite {
  /** submit-order.ts's StoreRef (not imported: submit-order.ts imports this file). */
  store: { storeId: string; accountId: string };
  submission: OrderSubmission;
  now: number;
  /** The customer's and the order's date (an import's order date; else now). */
  datedAt: number;
  maxAttempts: number;
  enrichment: EnrichmentOptions;
  requestId: string | null;
  unitPriceUsd: string;
}

/** A write with its row ids drawn: the customer's id says whether the statement created it. */
export interface PreparedWrite {
  customerId: string;
  orderId: string | null;
  row: Record<Column, string | number | null>;
}

export function prepareWrite(w: NewCustomerWrite): PreparedWrite {
  const { submission: s, store, now, datedAt } = w;
  const customerId = newId(now);
  const orderId = s.order === null ? null : newId(datedAt);
  const job = enrichmentJob(customerId, w.maxAttempts, w.enrichment, w.requestId);
  return {
    customerId,
    orderId,
    row: {
      customer_id: customerId,
      ...customerColumns(store, s),
      dated_at: datedAt,
      now,
      job_id: newId(now),
      job_key: job.jobKey,
      task: job.task,
      payload: JSON.stringify(job.payload),
      max_attempts: job.maxAttempts,
      priority: job.priority,
      request_id: job.requestId,
      charge_id: newId(now),
      account_id: store.accountId,
      unit_price_usd: w.unitPriceUsd,
      order_id: orderId,
      external_order_id: s.order?.id ?? null,
      order_number: s.order?.number ?? null,
      total: s.order?.total ?? null,
      currency: s.order?.currency ?? null,
    },
  };
}

/**
 * Writes the new customers among `writes` in one statement and returns the ids of the customers
 * it created (the others were not new: nothing of theirs was written). Throws, having written
 * nothing, when any row breaks a constraint (an order id the store already has).
 */
export async function insertNewCustomers(
  db: Db,
  writes: readonly PreparedWrite[],
): Promise<Set<string>> {
  // Rows in key order: two batches that share customers wait on each other in one order only
  // (never a deadlock), whatever order their submissions arrived in.
  const rows = [...writes].sort((a, b) => compareKeys(a.row, b.row));
  const parameters = COLUMNS.map(([name]) => rows.map((w) => w.row[name]));
  const created = await db.kysely.executeQuery<{ customer_id: string }>(
    CompiledQuery.raw(NEW_CUSTOMERS_SQL, parameters),
  );
  return new Set(created.rows.map((r) => r.customer_id));
}

function compareKeys(a: PreparedWrite["row"], b: PreparedWrite["row"]): number {
  const x = `${a.store_id} ${a.email_normalized}`;
  const y = `${b.store_id} ${b.email_normalized}`;
  return x < y ? -1 : x > y ? 1 : 0;
}
