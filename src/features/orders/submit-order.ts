/**
 * The order-intake use case, one transaction from first read to last write:
 *   get-or-create the customer (unique per store and normalised e-mail);
 *   when new: enqueue its enrichment and write its one usage charge;
 *   when its enrichment failed: flip it back to pending and requeue (no new charge);
 *   get-or-create the order (unique per store and platform order id).
 * Every uniqueness guard is a database constraint used through INSERT … ON CONFLICT DO NOTHING,
 * so racing requests on any number of processes converge on one row. Any error rolls the whole
 * transaction back, which is what makes a 500 safe to retry.
 */
import type { Transaction } from "kysely";
import type { Dialect } from "../../db/connect.js";
import type { Database, EnrichmentStatus } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { AppError } from "../../http/errors.js";
import { newId } from "../../lib/ids.js";
import { enqueueEnrichment } from "../enrichment/enqueue-enrichment.js";
import { requeueFailedEnrichment } from "../enrichment/requeue-failed-enrichment.js";
import { normalizeEmail } from "./email-address.js";
import {
  findCustomer,
  findOrder,
  insertCharge,
  insertCustomer,
  insertOrder,
  insertOrderOnce,
} from "./order-queries.js";
import type { OrderSubmission } from "./order-request.js";

export type EnrichmentStatusAnswer = "queued" | "retry" | "existing";

export interface SubmitOrderResult {
  customerId: string;
  orderId?: string;
  enrichmentStatus: EnrichmentStatusAnswer;
}

export interface StoreRef {
  storeId: string;
  accountId: string;
}

export async function submitOrder(
  deps: Pick<Deps, "db" | "clock" | "config" | "jobs">,
  store: StoreRef,
  submission: OrderSubmission,
  /** The request's X-Request-Id, carried by the enrichment job. */
  requestId: string | null = null,
): Promise<SubmitOrderResult> {
  const dialect = deps.db.dialect;
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const customer = await getOrCreateCustomer(trx, dialect, store, submission, now);
    let enrichmentStatus: EnrichmentStatusAnswer;
    if (customer.created) {
      const { maxAttempts } = deps.config.enrichment;
      await enqueueEnrichment(trx, customer.id, now, maxAttempts, requestId);
      await chargeEnrichment(trx, dialect, store, customer.id, deps.config.enrichmentPriceUsd, now);
      enrichmentStatus = "queued";
    } else {
      enrichmentStatus = await answerForExisting(
        trx,
        customer.id,
        customer.status,
        now,
        deps.config.enrichment.maxAttempts,
        requestId,
      );
    }
    const result: SubmitOrderResult = { customerId: customer.id, enrichmentStatus };
    if (submission.order !== null) {
      result.orderId = await getOrCreateOrder(
        trx,
        dialect,
        store,
        customer.id,
        submission.order,
        now,
      );
    }
    return result;
  });
  // Wake the in-process worker only after the commit, or it could not see the job yet.
  if (result.enrichmentStatus !== "existing") deps.jobs.notify();
  return result;
}

async function getOrCreateCustomer(
  trx: Transaction<Database>,
  dialect: Dialect,
  store: StoreRef,
  s: OrderSubmission,
  now: number,
): Promise<{ id: string; created: boolean; status: EnrichmentStatus }> {
  const emailNormalized = normalizeEmail(s.email);
  const inserted = await insertCustomer.executeTakeFirst(trx, dialect, {
    id: newId(now),
    store_id: store.storeId,
    email: s.email,
    email_normalized: emailNormalized,
    first_name: s.firstName,
    last_name: s.lastName,
    phone: s.phone,
    address_city: s.address?.city ?? null,
    address_state: s.address?.state ?? null,
    address_zipcode: s.address?.zipcode ?? null,
    address_country: s.address?.country ?? null,
    now,
  });
  if (inserted) return { id: inserted.id, created: true, status: "pending" };

  const existing = await findCustomer.executeTakeFirst(trx, dialect, {
    store_id: store.storeId,
    email_normalized: emailNormalized,
  });
  // Only a concurrent delete could get here; it fails the transaction as a 500, as before.
  if (!existing) throw new Error("customer not found after its insert conflicted");
  return { id: existing.id, created: false, status: existing.enrichment_status };
}

/** Existing customer: enriched → existing; running → queued; failed → requeue and retry. */
async function answerForExisting(
  trx: Transaction<Database>,
  customerId: string,
  status: EnrichmentStatus,
  now: number,
  maxAttempts: number,
  requestId: string | null,
): Promise<EnrichmentStatusAnswer> {
  if (status === "enriched") return "existing";
  if (status === "pending") return "queued";
  // Only the request that flips failed → pending requeues; a racing one sees pending: queued.
  if (!(await requeueFailedEnrichment(trx, customerId, now))) return "queued";
  await enqueueEnrichment(trx, customerId, now, maxAttempts, requestId);
  return "retry";
}

async function chargeEnrichment(
  trx: Transaction<Database>,
  dialect: Dialect,
  store: StoreRef,
  customerId: string,
  unitPriceUsd: string,
  now: number,
): Promise<void> {
  await insertCharge.execute(trx, dialect, {
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
  dialect: Dialect,
  store: StoreRef,
  customerId: string,
  order: NonNullable<OrderSubmission["order"]>,
  now: number,
): Promise<string> {
  const values = {
    id: newId(now),
    store_id: store.storeId,
    customer_id: customerId,
    external_order_id: order.id,
    order_number: order.number,
    total: order.total,
    currency: order.currency,
    created_at: now,
  };
  if (order.id === null) {
    await insertOrder.execute(trx, dialect, values);
    return values.id;
  }
  const inserted = await insertOrderOnce.executeTakeFirst(trx, dialect, values);
  if (inserted) return inserted.id;

  const existing = await findOrder.executeTakeFirst(trx, dialect, {
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
  return existing.id;
}
