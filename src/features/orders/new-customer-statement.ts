/**
 * PostgreSQL: a new customer's whole submission in ONE statement (issue 14). A single statement
 * is its own transaction, so this is still all-or-nothing and answered only after its commit,
 * but it costs one round trip and one pool checkout instead of seven and one held across six
 * (BEGIN, four inserts, COMMIT): on PostgreSQL the time of a submission was round trips and the
 * waits for a pooled connection they caused (README, Performance → Order intake on PostgreSQL).
 *
 * It writes only when the customer is new. When the store already has that e-mail the customer
 * insert does nothing, so nothing else is written and `null` sends the caller to the general
 * transaction (submit-order.ts), which handles existing customers. The order is a plain insert:
 * an order id the store already has fails the whole statement with a unique violation, nothing
 * is written, and the general transaction answers it (a 409, or the repeat it turns out to be
 * after a race). Every uniqueness rule stays a database constraint; the job and charge rows are
 * exactly what enqueueEnrichment and chargeEnrichment write.
 */
import { CompiledQuery } from "kysely";
import type { Db } from "../../db/connect.js";
import { isUniqueViolation } from "../../db/errors.js";
import { nameStatement } from "../../db/named-statements.js";
import type { StoreRef } from "../../db/store-ref.js";
import type { Deps } from "../../deps.js";
import { newId } from "../../lib/ids.js";
import { type EnrichmentOptions, enrichmentJob } from "../enrichment/enqueue-enrichment.js";
import { normalizeEmail } from "./email-address.js";
import type { OrderSubmission } from "./order-request.js";
import {
  enrichmentOptions,
  type SubmitOrderOptions,
  type SubmitOrderOutcome,
} from "./submit-order-types.js";

const NEW_CUSTOMER_SQL = `
with customer as (
  -- The customer, unless the store has this e-mail already: then this yields no row, and no
  -- other part below writes anything (each selects from it).
  insert into customers (id, store_id, email, email_normalized, first_name, last_name, phone,
    address_city, address_state, address_zipcode, address_country, enrichment_status,
    created_at, updated_at)
  values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'pending', $12, $13)
  on conflict (store_id, email_normalized) do nothing
  returning id
), job as (
  -- Its enrichment job in the outbox, due now (as jobs/enqueue-job.ts writes a new one).
  insert into jobs (id, job_key, created_at, task, payload, run_at, attempts, max_attempts,
    priority, last_error, locked_by, locked_until, request_id, updated_at)
  select $14::text, $15::text, $13::bigint, $16::text, $17::text, $13::bigint, 0, $18::integer,
    $19::integer, null, null, null, $20::text, $13::bigint
  from customer
), charge as (
  -- Its one usage charge.
  insert into usage_charges (id, account_id, store_id, customer_id, unit_price_usd, created_at)
  select $21::text, $22::text, $2::text, customer.id, $23::text, $13::bigint
  from customer
), new_order as (
  -- Its order, when the submission has one; a taken order id fails the whole statement.
  insert into orders (id, store_id, customer_id, external_order_id, order_number, total,
    currency, created_at)
  select $24::text, $2::text, customer.id, $25::text, $26::text, $27::text, $28::text, $12::bigint
  from customer
  where $29::boolean
  returning id
)
select customer.id as customer_id, (select id from new_order) as order_id from customer`;
nameStatement(NEW_CUSTOMER_SQL);

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

/** The new customer's and order's ids, or null when this is not a new customer (nothing written). */
export async function insertNewCustomer(
  db: Db,
  w: NewCustomerWrite,
): Promise<{ customerId: string; orderId: string | null } | null> {
  const { submission: s, store, now, datedAt } = w;
  const customerId = newId(now);
  const job = enrichmentJob(customerId, w.maxAttempts, w.enrichment, w.requestId);
  const order = s.order;
  const parameters = [
    customerId,
    store.storeId,
    s.email,
    normalizeEmail(s.email),
    s.firstName,
    s.lastName,
    s.phone,
    s.address?.city ?? null,
    s.address?.state ?? null,
    s.address?.zipcode ?? null,
    s.address?.country ?? null,
    datedAt,
    now,
    newId(now),
    job.jobKey,
    job.task,
    JSON.stringify(job.payload),
    job.maxAttempts,
    job.priority,
    job.requestId,
    newId(now),
    store.accountId,
    w.unitPriceUsd,
    newId(datedAt),
    order?.id ?? null,
    order?.number ?? null,
    order?.total ?? null,
    order?.currency ?? null,
    order !== null,
  ];
  try {
    const { rows } = await db.kysely.executeQuery<{ customer_id: string; order_id: string | null }>(
      CompiledQuery.raw(NEW_CUSTOMER_SQL, parameters),
    );
    const row = rows[0];
    return row === undefined ? null : { customerId: row.customer_id, orderId: row.order_id };
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** PostgreSQL's one-statement path for a new customer; null when the customer already exists. */
export async function submitNewCustomerInOneStatement(
  deps: Pick<Deps, "db" | "clock" | "config">,
  store: StoreRef,
  submission: OrderSubmission,
  options: SubmitOrderOptions,
): Promise<SubmitOrderOutcome | null> {
  const now = deps.clock.now();
  const created = await insertNewCustomer(deps.db, {
    store,
    submission,
    now,
    datedAt: options.orderedAt ?? now,
    maxAttempts: deps.config.enrichment.maxAttempts,
    enrichment: enrichmentOptions(options),
    requestId: options.requestId ?? null,
    unitPriceUsd: deps.config.enrichmentPriceUsd,
  });
  if (created === null) return null;
  const { customerId, orderId } = created;
  return {
    customerId,
    ...(orderId === null ? {} : { orderId }),
    enrichmentStatus: "queued",
    newCustomer: true,
    newOrder: orderId !== null,
  };
}
