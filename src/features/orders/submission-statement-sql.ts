/**
 * The text of PostgreSQL's one-statement order submission (submission-statement.ts binds its
 * parameters, runs it and reads its answers): the columns each submission brings as one array
 * parameter apiece, and the data-modifying CTEs that settle every submission of a batch.
 *
 * The rules are the general transaction's (submit-order.ts), in the same order:
 *   - a new customer: the customer, its enrichment job, its one charge, its order;
 *   - a returning customer: the order (or the repeat of one already stored); enriched → existing,
 *     pending → queued (a live order moves a queued backfill job to the live queue), failed →
 *     flipped back to pending and requeued, "retry" (of racing submissions only the one whose
 *     update flips it; the others answer queued);
 *   - an imported order (`backdate`) dates a returning customer back to it when it is earlier;
 *   - an order id the store already has for another customer: a conflict, nothing written.
 * A submission the statement cannot settle with certainty writes nothing and is answered
 * "unsettled", for the general transaction: a customer or an order another transaction created
 * after this statement's snapshot, a new customer whose order id is already taken, and an
 * imported order of a customer whose enrichment failed. Each of those is rare; the transaction
 * gives them the same answers as before. Every uniqueness rule stays a database constraint; a
 * concurrent taken order id of a new customer fails the whole statement (nothing written).
 */
import { nameStatement } from "../../db/named-statements.js";
import { JOB_PRIORITIES } from "../../jobs/claim-jobs.js";
import { fairTagText } from "../../jobs/fair-tag.js";
import { ENRICH_CUSTOMER_TASK } from "../enrichment/enqueue-enrichment.js";

/** One array parameter per column, zipped back into rows by unnest (in this order). */
export const COLUMNS = [
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
  ["backdate", "boolean"],
  ["now", "bigint"],
  ["job_id", "text"],
  ["alerts", "boolean"],
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

export type Column = (typeof COLUMNS)[number][0];

const LIVE = JOB_PRIORITIES.live;
const JOB_KEY = (id: string) => `'${ENRICH_CUSTOMER_TASK}:' || ${id}`;
/** enrichmentJob's payload, as JSON.stringify writes it: `alerts` only when off. */
const PAYLOAD = (id: string, alerts: string) =>
  `'{"customerId":' || to_json(${id})::text || case when ${alerts} then '}' else ',"alerts":false}' end`;

export const SUBMISSIONS_SQL = `
with input as (
  select * from unnest(${COLUMNS.map(([, type], i) => `$${i + 1}::${type}[]`).join(", ")})
    with ordinality as input(${COLUMNS.map(([name]) => name).join(", ")}, n)
), existing as (
  -- Returning customers as of this statement's snapshot, with a pending one's job priority.
  -- Each an index probe per submission, on the unique index the ORDER BY names (it runs on
  -- connections that never scan where an index serves: db/connect.ts, "indexed").
  select input.n, c.id, c.enrichment_status as status, c.job_priority
  from input
  cross join lateral (
    select c.id, c.enrichment_status, j.priority as job_priority
    from customers c
    left join jobs j on c.enrichment_status = 'pending' and j.job_key = ${JOB_KEY("c.id")}
    where c.store_id = input.store_id and c.email_normalized = input.email_normalized
    order by c.store_id, c.email_normalized
    limit 1
  ) c
), prior_order as (
  select input.n, o.id, o.customer_id
  from input
  cross join lateral (
    select o.id, o.customer_id from orders o
    where o.store_id = input.store_id and o.external_order_id = input.external_order_id
    order by o.store_id, o.external_order_id
    limit 1
  ) o
), customer as (
  -- New customers (not the ones whose order id is taken: those go to the transaction).
  insert into customers (id, store_id, email, email_normalized, first_name, last_name, phone,
    address_city, address_state, address_zipcode, address_country, enrichment_status,
    created_at, updated_at)
  select customer_id, store_id, email, email_normalized, first_name, last_name, phone,
    address_city, address_state, address_zipcode, address_country, 'pending', dated_at, now
  from input
  where not exists (select from existing e where e.n = input.n)
    and not exists (select from prior_order p where p.n = input.n)
  on conflict (store_id, email_normalized) do nothing
  returning id
), created as (
  select input.* from input join customer on customer.id = input.customer_id
), new_order as (
  -- A new customer's order; a taken order id fails the statement, nothing written.
  insert into orders (id, store_id, customer_id, external_order_id, order_number, total,
    currency, created_at)
  select order_id, store_id, customer_id, external_order_id, order_number, total, currency,
    dated_at
  from created where order_id is not null
), candidate as (
  -- Returning customers' submissions this statement can settle: not an order id of another
  -- customer, not an imported order of a customer whose enrichment failed.
  select input.*, e.id as known_id, e.status, e.job_priority, p.id as prior_order_id
  from input
  join existing e on e.n = input.n
  left join prior_order p on p.n = input.n
  where (p.customer_id is null or p.customer_id = e.id)
    and not (e.status = 'failed' and input.backdate)
), known_order as (
  -- Their new orders; an order id stored after the snapshot is skipped (left unsettled).
  insert into orders (id, store_id, customer_id, external_order_id, order_number, total,
    currency, created_at)
  select order_id, store_id, known_id, external_order_id, order_number, total, currency,
    dated_at
  from candidate where order_id is not null and prior_order_id is null
  on conflict (store_id, external_order_id) do nothing
  returning id
), settled as (
  select candidate.* from candidate
  where order_id is null or prior_order_id is not null
    or exists (select from known_order k where k.id = candidate.order_id)
), flipped as (
  update customers c set enrichment_status = 'pending', updated_at = s.now
  from settled s
  where c.id = s.known_id and s.status = 'failed' and c.enrichment_status = 'failed'
  returning c.id
), backdated as (
  update customers c set created_at = s.dated_at
  from settled s
  where c.id = s.known_id and s.backdate and s.status <> 'failed' and c.created_at > s.dated_at
), promoted as (
  update jobs j set priority = ${LIVE}, payload = ${PAYLOAD("s.known_id", "true")},
    fair_tag = null
  from settled s
  where s.status = 'pending' and s.priority = ${LIVE} and s.job_priority <> ${LIVE}
    and j.job_key = ${JOB_KEY("s.known_id")}
), job as (
  -- New customers' jobs and the requeued ones (as jobs/enqueue-job.ts writes them: a job a
  -- worker holds right now is left alone).
  -- Each account's backfill jobs of one statement take consecutive turns (jobs/fair-tag.ts);
  -- live jobs take no tag (jobs/enqueue-job.ts).
  insert into jobs (id, job_key, created_at, task, payload, run_at, attempts, max_attempts,
    priority, last_error, locked_by, locked_until, request_id, updated_at, queue_key, fair_tag)
  select job_id, ${JOB_KEY("id")}, now, '${ENRICH_CUSTOMER_TASK}', ${PAYLOAD("id", "alerts")},
    now, 0, max_attempts, priority, null, null, null, request_id, now, account_id,
    case when priority <> ${LIVE} then ${fairTagText("account_id", "priority")}
      + row_number() over (partition by account_id, priority order by n) - 1 end
  from (
    select n, job_id, customer_id as id, now, alerts, max_attempts, priority, request_id,
      account_id
    from created
    union all
    select s.n, s.job_id, s.known_id, s.now, s.alerts, s.max_attempts, s.priority,
      s.request_id, s.account_id
    from settled s join flipped f on f.id = s.known_id
  ) queued
  on conflict (job_key) do update set task = excluded.task, payload = excluded.payload,
    run_at = excluded.run_at, attempts = 0, max_attempts = excluded.max_attempts,
    priority = excluded.priority, last_error = null, locked_by = null, locked_until = null,
    request_id = excluded.request_id, updated_at = excluded.updated_at,
    queue_key = excluded.queue_key, fair_tag = excluded.fair_tag
  where jobs.locked_until is null or jobs.locked_until < excluded.updated_at
), charge as (
  insert into usage_charges (id, account_id, store_id, customer_id, unit_price_usd, created_at)
  select charge_id, account_id, store_id, customer_id, unit_price_usd, now
  from created
)
select input.n::int as n, customer.id is not null as created, s.known_id, s.status,
  s.prior_order_id, f.id is not null as flipped,
  coalesce(p.customer_id <> e.id, false) as conflict
from input
left join customer on customer.id = input.customer_id
left join settled s on s.n = input.n
left join flipped f on f.id = s.known_id
left join existing e on e.n = input.n
left join prior_order p on p.n = input.n`;
nameStatement(SUBMISSIONS_SQL);
