/**
 * SQLite: a live submission written by one synchronous transaction body on the writer
 * (db/transact-sync.ts): the statements of submit-order.ts, prepared once and run at once by
 * better-sqlite3, in the same savepoint of the turn's shared transaction and answered after its
 * COMMIT, with none of Kysely's per-query promises, connection handling and copies in between
 * (docs/performance.md, Order intake). The rules are submit-order.ts's:
 *   a new customer gets its enrichment job and its one charge;
 *   a known customer: enriched → existing; pending → queued (a queued backfill job joins the
 *   live queue for a live order);
 *   the order: new, the customer's own repeat (its first id back), or the contract's 409 for an
 *   order id of another customer, which undoes the whole submission.
 * What it leaves to the general transaction, having written nothing: a customer whose enrichment
 * failed (requeue and retry), a customer gone after its insert conflicted, and the submissions
 * the caller never sends here (an import's dated orders, sample data).
 */
import type { SqliteDirect } from "../../db/connect.js";
import type { StatementCache } from "../../db/sqlite-statement-cache.js";
import type { StoreRef } from "../../db/store-ref.js";
import { transactSync } from "../../db/transact-sync.js";
import type { Deps } from "../../deps.js";
import { JOB_PRIORITIES } from "../../jobs/claim-jobs.js";
import { enqueueJobSync } from "../../jobs/enqueue-job.js";
import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import { enrichmentJob, enrichmentJobKey } from "../enrichment/enqueue-enrichment.js";
import { customerColumns } from "./customer-columns.js";
import {
  findCustomerByEmail,
  findOrder,
  insertCharge,
  insertCustomerIfNew,
  insertOrder,
  insertOrderIfNew,
  promoteJob,
} from "./order-queries.js";
import type { OrderSubmission } from "./order-request.js";
import {
  type EnrichmentStatusAnswer,
  enrichmentOptions,
  type SubmitOrderOptions,
  type SubmitOrderOutcome,
} from "./submit-order-types.js";

/** Thrown inside the body to undo its savepoint and hand the submission on. */
const LEFT_TO_TRANSACTION = Symbol("left to the general transaction");

/** The submission written, or null: nothing written, the general transaction decides. */
export async function submitOnSqlite(
  sqlite: SqliteDirect,
  deps: Pick<Deps, "clock" | "config">,
  store: StoreRef,
  submission: OrderSubmission,
  options: SubmitOrderOptions,
): Promise<SubmitOrderOutcome | null> {
  try {
    return await transactSync(sqlite.driver, (writer) =>
      write(sqlite, writer, deps, store, submission, options),
    );
  } catch (error) {
    if (error === LEFT_TO_TRANSACTION) return null;
    throw error;
  }
}

function write(
  sqlite: SqliteDirect,
  writer: StatementCache,
  deps: Pick<Deps, "clock" | "config">,
  store: StoreRef,
  submission: OrderSubmission,
  options: SubmitOrderOptions,
): SubmitOrderOutcome {
  const now = deps.clock.now();
  const enrichment = enrichmentOptions(options, store.accountId);
  const columns = customerColumns(store, submission);
  let customerId = newId(now);
  const created =
    insertCustomerIfNew.runSync(sqlite, writer, {
      id: customerId,
      ...columns,
      created_at: now,
      now,
    }) === 1;
  let enrichmentStatus: EnrichmentStatusAnswer;
  if (created) {
    const job = enrichmentJob(
      customerId,
      deps.config.enrichment.maxAttempts,
      enrichment,
      options.requestId ?? null,
    );
    enqueueJobSync(sqlite, writer, job, now);
    insertCharge.runSync(sqlite, writer, {
      id: newId(now),
      account_id: store.accountId,
      store_id: store.storeId,
      customer_id: customerId,
      unit_price_usd: deps.config.enrichmentPriceUsd,
      created_at: now,
    });
    enrichmentStatus = "queued";
  } else {
    const [existing] = findCustomerByEmail.allSync(sqlite, writer, {
      store_id: store.storeId,
      email_normalized: columns.email_normalized,
    });
    if (existing === undefined || existing.enrichment_status === "failed") {
      throw LEFT_TO_TRANSACTION;
    }
    customerId = existing.id;
    enrichmentStatus = existing.enrichment_status === "enriched" ? "existing" : "queued";
    const priority = existing.job_priority;
    const queuedAsBackfill = priority !== null && priority !== JOB_PRIORITIES.live;
    if (enrichmentStatus === "queued" && enrichment.priority === "live" && queuedAsBackfill) {
      promoteJob.runSync(sqlite, writer, {
        job_key: enrichmentJobKey(customerId),
        payload: JSON.stringify({ customerId }),
        live: JOB_PRIORITIES.live,
      });
    }
  }
  const outcome: SubmitOrderOutcome = {
    customerId,
    enrichmentStatus,
    newCustomer: created,
    newOrder: false,
  };
  const order = submission.order;
  if (order === null) return outcome;
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
    insertOrder.runSync(sqlite, writer, values);
  } else if (insertOrderIfNew.runSync(sqlite, writer, values) === 0) {
    const [stored] = findOrder.allSync(sqlite, writer, {
      store_id: store.storeId,
      external_order_id: order.id,
    });
    if (stored === undefined) throw LEFT_TO_TRANSACTION;
    if (stored.customer_id !== customerId) {
      throw new AppError(
        "conflict",
        `order.id ${JSON.stringify(order.id)} already belongs to a different customer of this store`,
      );
    }
    outcome.orderId = stored.id;
    return outcome;
  }
  outcome.orderId = values.id;
  outcome.newOrder = true;
  return outcome;
}
