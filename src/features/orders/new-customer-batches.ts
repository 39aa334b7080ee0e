/**
 * PostgreSQL: the new-customer submissions that arrive while the database is busy are written
 * together, by one statement (new-customer-statement.ts), as soon as it is free: group commit,
 * as the SQLite driver does for its transactions (db/sqlite-driver.ts). At low load each
 * submission goes alone at once; under load a batch costs one round trip and one commit instead
 * of one per customer, and PostgreSQL's CPU per customer falls by more than half
 * (docs/performance.md, Order intake on PostgreSQL).
 *
 * Each submission stays all-or-nothing and is answered only after the commit that holds it.
 * When a batch fails (an order id the store already has, or any other error), nothing of it was
 * written and every submission of it is written again alone, so one submission's problem is its
 * own: a taken order id then answers null (the general transaction gives the 409 or the repeat),
 * anything else fails that submission only.
 */
import type { Db } from "../../db/connect.js";
import { isUniqueViolation } from "../../db/errors.js";
import type { StoreRef } from "../../db/store-ref.js";
import type { Deps } from "../../deps.js";
import { batcherPerOwner } from "../../lib/micro-batcher.js";
import { insertNewCustomers, type PreparedWrite, prepareWrite } from "./new-customer-statement.js";
import type { OrderSubmission } from "./order-request.js";
import {
  enrichmentOptions,
  type SubmitOrderOptions,
  type SubmitOrderOutcome,
} from "./submit-order-types.js";

/** Customers per statement at most (28 array parameters of this many elements each). */
const MAX_BATCH = 64;

/**
 * Statements out at once per process. Few on purpose: a submission that finds them all out waits
 * for the next batch instead of taking a connection of its own, which is what makes batches
 * form; three keep a 2-core PostgreSQL busy while one is on its way back. Measured with 50
 * connections on the 2-core machine: 2 gave the same throughput with a worse p99, 5 gave
 * 10–15 % less (smaller batches); docs/performance.md, Order intake on PostgreSQL. The rest of
 * the pool (DATABASE_POOL_MAX, default 10) serves key lookups, repeats, the worker and the
 * dashboard.
 */
const STATEMENTS_IN_FLIGHT = 3;

type Created = { customerId: string; orderId: string | null } | null;

const batches = batcherPerOwner((db: Db) => ({
  maxBatch: MAX_BATCH,
  maxInFlight: STATEMENTS_IN_FLIGHT,
  run: (writes: readonly PreparedWrite[]) => writeBatch(db, writes),
}));

async function writeBatch(
  db: Db,
  writes: readonly PreparedWrite[],
): Promise<PromiseSettledResult<Created>[]> {
  if (writes.length > 1) {
    try {
      const created = await insertNewCustomers(db, writes);
      return writes.map((w) => ({ status: "fulfilled", value: answer(w, created) }));
    } catch {
      // Nothing of the batch was written: each submission again, alone, below.
    }
  }
  return Promise.allSettled(writes.map((w) => writeAlone(db, w)));
}

async function writeAlone(db: Db, write: PreparedWrite): Promise<Created> {
  try {
    return answer(write, await insertNewCustomers(db, [write]));
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

function answer(write: PreparedWrite, created: Set<string>): Created {
  if (!created.has(write.customerId)) return null;
  return { customerId: write.customerId, orderId: write.orderId };
}

/** A new customer's submission, batched; null when it is not a new customer (nothing written). */
export async function submitNewCustomer(
  deps: Pick<Deps, "db" | "clock" | "config">,
  store: StoreRef,
  submission: OrderSubmission,
  options: SubmitOrderOptions,
): Promise<SubmitOrderOutcome | null> {
  const now = deps.clock.now();
  const write = prepareWrite({
    store,
    submission,
    now,
    datedAt: options.orderedAt ?? now,
    maxAttempts: deps.config.enrichment.maxAttempts,
    enrichment: enrichmentOptions(options),
    requestId: options.requestId ?? null,
    unitPriceUsd: deps.config.enrichmentPriceUsd,
  });
  const created = await batches(deps.db).submit(write);
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
