/**
 * The order-intake use case, one transaction from first read to last write:
 *   get-or-create the customer (unique per store and normalised e-mail);
 *   when new: enqueue its enrichment and write its one usage charge;
 *   when its enrichment failed: flip it back to pending and requeue (no new charge);
 *   get-or-create the order (unique per store and platform order id).
 * The API and the order importers (features/order-import) both come through here; an import
 * passes `orderedAt` (the order's own date), `alerts: false` and the backfill priority; the
 * sample store history (features/demo) also `sample: true`, which marks new customers as
 * sample and charges nothing (always through the transaction below).
 * On PostgreSQL a submission is written by one statement first, with the other submissions that
 * arrive while the database is busy (submission-batches.ts: one round trip instead of five to
 * seven each, for new and returning customers alike, by the same rules); what that statement
 * cannot settle with certainty (a race with another writer) comes here to the transaction. On
 * SQLite a live submission runs the same statements synchronously (submit-order-sqlite.ts), and
 * comes here only for what that leaves (a customer whose enrichment failed).
 * Every uniqueness guard is a database constraint used through INSERT … ON CONFLICT DO NOTHING,
 * so racing requests on any number of processes converge on one row. Any error rolls the whole
 * transaction back, which is what makes a 500 safe to retry.
 */

import type { Transaction } from "kysely";
import type { Database, EnrichmentStatus } from "../../db/schema.js";
import type { StoreRef } from "../../db/store-ref.js";
import type { Deps } from "../../deps.js";
import { JOB_PRIORITIES } from "../../jobs/claim-jobs.js";
import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import {
  type EnrichmentOptions,
  enqueueEnrichment,
  enrichmentJobKey,
} from "../enrichment/enqueue-enrichment.js";
import { requeueFailedEnrichment } from "../enrichment/requeue-failed-enrichment.js";
import { customerColumns } from "./customer-columns.js";
import {
  findCustomerByEmail,
  findOrder,
  insertCharge,
  insertCustomer,
  insertOrder,
  insertOrderOnce,
  promoteJob,
} from "./order-queries.js";
import type { OrderSubmission } from "./order-request.js";
import { submitBatched } from "./submission-batches.js";
import { submitOnSqlite } from "./submit-order-sqlite.js";
import {
  type EnrichmentStatusAnswer,
  enrichmentOptions,
  type SubmitOrderOptions,
  type SubmitOrderOutcome,
} from "./submit-order-types.js";

export async function submitOrder(
  deps: Pick<Deps, "db" | "clock" | "config" | "jobs">,
  store: StoreRef,
  submission: OrderSubmission,
  options: SubmitOrderOptions = {},
): Promise<SubmitOrderOutcome> {
  if (deps.db.dialect === "postgres" && !options.sample) {
    const batched = await submitBatched(deps, store, submission, options);
    if (batched !== null) {
      if (batched.enrichmentStatus !== "existing") deps.jobs.notify();
      return batched;
    }
  } else if (deps.db.sqlite !== null && !options.sample && options.orderedAt === undefined) {
    const direct = await submitOnSqlite(deps.db.sqlite, deps, store, submission, options);
    if (direct !== null) {
      if (direct.enrichmentStatus !== "existing") deps.jobs.notify();
      return direct;
    }
  }
  const result = await deps.db.kysely
    .transaction()
    .execute((trx) => submitOrderInTransaction(trx, deps, store, submission, options));
  // Wake the in-process worker only after the commit, or it could not see the job yet.
  if (result.enrichmentStatus !== "existing") deps.jobs.notify();
  return result;
}

/**
 * The same use case inside the caller's transaction, for a caller that commits other writes
 * with the order (a store sync saves its cursor with the page of orders it covers). The caller
 * commits, then calls `jobs.notify()` when any outcome's enrichmentStatus is not "existing".
 */
export async function submitOrderInTransaction(
  trx: Transaction<Database>,
  deps: Pick<Deps, "clock" | "config">,
  store: StoreRef,
  submission: OrderSubmission,
  options: SubmitOrderOptions = {},
): Promise<SubmitOrderOutcome> {
  const enrichment = enrichmentOptions(options, store.accountId);
  const maxAttempts = deps.config.enrichment.maxAttempts;
  const requestId = options.requestId ?? null;
  const now = deps.clock.now();
  const datedAt = options.orderedAt ?? now;
  const customer = await getOrCreateCustomer(trx, store, submission, now, datedAt);
  let enrichmentStatus: EnrichmentStatusAnswer;
  if (customer.created) {
    await enqueueEnrichment(trx, customer.id, now, maxAttempts, enrichment, requestId);
    if (options.sample) await markSample(trx, customer.id);
    else await chargeEnrichment(trx, store, customer.id, deps.config.enrichmentPriceUsd, now);
    enrichmentStatus = "queued";
  } else {
    enrichmentStatus = await answerForExisting(
      trx,
      customer,
      now,
      maxAttempts,
      enrichment,
      requestId,
    );
    if (options.orderedAt !== undefined) await backdateCustomer(trx, customer.id, datedAt);
  }
  const result: SubmitOrderOutcome = {
    customerId: customer.id,
    enrichmentStatus,
    newCustomer: customer.created,
    newOrder: false,
  };
  if (submission.order !== null) {
    const order = await getOrCreateOrder(trx, store, customer.id, submission.order, datedAt);
    result.orderId = order.id;
    result.newOrder = order.created;
  }
  return result;
}

async function getOrCreateCustomer(
  trx: Transaction<Database>,
  store: StoreRef,
  s: OrderSubmission,
  now: number,
  createdAt: number,
): Promise<ExistingCustomer & { created: boolean }> {
  const columns = customerColumns(store, s);
  const inserted = await insertCustomer.executeTakeFirst(trx, {
    id: newId(now),
    ...columns,
    created_at: createdAt,
    now,
  });
  if (inserted) return { id: inserted.id, created: true, status: "pending", jobPriority: null };

  const existing = await findCustomerByEmail.executeTakeFirst(trx, {
    store_id: store.storeId,
    email_normalized: columns.email_normalized,
  });
  // Only a concurrent delete could get here; it fails the transaction as a 500, as before.
  if (!existing) throw new Error("customer not found after its insert conflicted");
  return {
    id: existing.id,
    created: false,
    status: existing.enrichment_status,
    jobPriority: existing.job_priority,
  };
}

/** Sample data is marked as such and never charged (velvet demo). */
async function markSample(trx: Transaction<Database>, customerId: string) {
  await trx.updateTable("customers").set({ sample: 1 }).where("id", "=", customerId).execute();
}

/**
 * An imported history may list a customer's orders newest first: the customer dates from
 * their earliest order seen, so the dashboard's new-customers chart counts them on that day.
 */
async function backdateCustomer(trx: Transaction<Database>, customerId: string, at: number) {
  await trx
    .updateTable("customers")
    .set({ created_at: at })
    .where("id", "=", customerId)
    .where("created_at", ">", at)
    .execute();
}

/**
 * A live order from a customer whose enrichment is still queued as part of an import: the
 * customer is shopping now, so the job joins the live queue (ahead of the rest of the backfill)
 * and may alert like any live customer's. Only when findCustomerByEmail saw a backfill job.
 */
async function promoteEnrichment(trx: Transaction<Database>, customerId: string) {
  await promoteJob.execute(trx, {
    job_key: enrichmentJobKey(customerId),
    payload: JSON.stringify({ customerId }),
    live: JOB_PRIORITIES.live,
  });
}

interface ExistingCustomer {
  id: string;
  status: EnrichmentStatus;
  /** The enrichment job's priority while the customer is pending, else null. */
  jobPriority: number | null;
}

/** Existing customer: enriched → existing; running → queued; failed → requeue and retry. */
async function answerForExisting(
  trx: Transaction<Database>,
  { id: customerId, status, jobPriority }: ExistingCustomer,
  now: number,
  maxAttempts: number,
  enrichment: EnrichmentOptions,
  requestId: string | null,
): Promise<EnrichmentStatusAnswer> {
  if (status === "enriched") return "existing";
  if (status === "pending") {
    const queuedAsBackfill = jobPriority !== null && jobPriority !== JOB_PRIORITIES.live;
    if (enrichment.priority === "live" && queuedAsBackfill) {
      await promoteEnrichment(trx, customerId);
    }
    return "queued";
  }
  // Only the request that flips failed → pending requeues; a racing one sees pending: queued.
  if (!(await requeueFailedEnrichment(trx, customerId, now))) return "queued";
  await enqueueEnrichment(trx, customerId, now, maxAttempts, enrichment, requestId);
  return "retry";
}

async function chargeEnrichment(
  trx: Transaction<Database>,
  store: StoreRef,
  customerId: string,
  unitPriceUsd: string,
  now: number,
): Promise<void> {
  await insertCharge.execute(trx, {
    id: newId(now),
    account_id: store.accountId,
    store_id: store.storeId,
    customer_id: customerId,
    unit_price_usd: unitPriceUsd,
    created_at: now,
  });
}

async function getOrCreateOrder(
  trx: Transaction<Database>,
  store: StoreRef,
  customerId: string,
  order: NonNullable<OrderSubmission["order"]>,
  orderedAt: number,
): Promise<{ id: string; created: boolean }> {
  const values = {
    id: newId(orderedAt),
    store_id: store.storeId,
    customer_id: customerId,
    external_order_id: order.id,
    order_number: order.number,
    total: order.total,
    currency: order.currency,
    created_at: orderedAt,
  };
  if (order.id === null) {
    await insertOrder.execute(trx, values);
    return { id: values.id, created: true };
  }
  const inserted = await insertOrderOnce.executeTakeFirst(trx, values);
  if (inserted) return { id: inserted.id, created: true };

  const existing = await findOrder.executeTakeFirst(trx, {
    store_id: store.storeId,
    external_order_id: order.id,
  });
  // Only a concurrent delete could get here; it fails the transaction as a 500, as before.
  if (!existing) throw new Error("order not found after its insert conflicted");
  if (existing.customer_id !== customerId) {
    throw new AppError(
      "conflict",
      `order.id ${JSON.stringify(order.id)} already belongs to a different customer of this store`,
    );
  }
  return { id: existing.id, created: false };
}
