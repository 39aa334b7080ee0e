/**
 * PostgreSQL: the order submissions that arrive while the database is busy are written together,
 * by one statement (submission-statement.ts), as soon as it is free: group commit, as the SQLite
 * driver does for its transactions (db/sqlite-driver.ts). At low load each submission goes alone
 * at once; under load a batch costs one round trip and one commit instead of one per submission
 * (docs/performance.md, Order intake).
 *
 * Each submission stays all-or-nothing and is answered only after the commit that holds it. A
 * batch carries at most one submission per customer and per order id; the others of the same
 * customer or order wait for that batch and then take the general transaction, as does anything
 * the statement leaves unsettled. When a batch fails for a reason of its own (an order id stored
 * meanwhile, a trigger, anything), nothing of it was written and every submission of it is
 * written again alone, so one submission's problem is its own. When it fails because the
 * database is away (a lost connection, a server shutting down: db/errors.ts), the batch fails
 * once, every member with that error: trying each alone would only multiply the attempts.
 */
import type { Db } from "../../db/connect.js";
import { isDatabaseUnavailable, isUniqueViolation } from "../../db/errors.js";
import type { StoreRef } from "../../db/store-ref.js";
import type { Deps } from "../../deps.js";
import { AppError } from "../../lib/app-error.js";
import { batcherPerOwner } from "../../lib/micro-batcher.js";
import type { OrderSubmission } from "./order-request.js";
import {
  type PreparedWrite,
  prepareWrite,
  type Settled,
  writeSubmissions,
} from "./submission-statement.js";
import {
  type EnrichmentStatusAnswer,
  enrichmentOptions,
  type SubmitOrderOptions,
  type SubmitOrderOutcome,
} from "./submit-order-types.js";

/** Submissions per statement at most (27 array parameters of this many elements each). */
const MAX_BATCH = 64;

/**
 * Statements out at once per process: one. A submission that finds it out waits for the next
 * batch instead of taking a connection of its own, which is what makes batches form, and the
 * bigger the batch the less PostgreSQL spends per submission (≈ 250 µs alone, ≈ 50 µs in a batch
 * of 64). Measured with 50 connections on the 2-core machine: with three out at once PostgreSQL
 * spent 1.6–2 × the CPU per new customer (smaller batches), the one node's throughput was no
 * higher, and two nodes sharing one PostgreSQL fell furthest behind; docs/performance.md, Order
 * intake. The rest of the pool (DATABASE_POOL_MAX, default 10) serves key lookups, the general
 * transaction, the worker and the dashboard.
 */
const STATEMENTS_IN_FLIGHT = 1;

const batches = batcherPerOwner((db: Db) => ({
  maxBatch: MAX_BATCH,
  maxInFlight: STATEMENTS_IN_FLIGHT,
  run: (writes: readonly PreparedWrite[]) => writeBatch(db, writes),
}));

const UNSETTLED: Settled = { kind: "unsettled" };

async function writeBatch(
  db: Db,
  writes: readonly PreparedWrite[],
): Promise<PromiseSettledResult<Settled>[]> {
  const { first, again } = oncePerKey(writes);
  let answers: PromiseSettledResult<Settled>[];
  if (first.length === 1) {
    answers = [await settle(writeAlone(db, first[0] as PreparedWrite))];
  } else {
    try {
      const settled = await writeSubmissions(db, first);
      answers = settled.map((value) => ({ status: "fulfilled", value }));
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw error;
      // Nothing of the batch was written: each submission again, alone.
      answers = await Promise.all(first.map((w) => settle(writeAlone(db, w))));
    }
  }
  const byWrite = new Map(first.map((w, i) => [w, answers[i]]));
  return writes.map((w) =>
    again.has(w) ? { status: "fulfilled", value: UNSETTLED } : (byWrite.get(w) as never),
  );
}

/** The first submission of each customer and of each order id; the rest wait for this batch. */
function oncePerKey(writes: readonly PreparedWrite[]) {
  if (writes.length === 1) return { first: writes, again: new Set<PreparedWrite>() };
  const seen = new Set<string>();
  const first: PreparedWrite[] = [];
  const again = new Set<PreparedWrite>();
  for (const w of writes) {
    const customer = `c ${w.row.store_id} ${w.row.email_normalized}`;
    const order = w.externalOrderId === null ? null : `o ${w.row.store_id} ${w.externalOrderId}`;
    if (seen.has(customer) || (order !== null && seen.has(order))) {
      again.add(w);
      continue;
    }
    seen.add(customer);
    if (order !== null) seen.add(order);
    first.push(w);
  }
  return { first, again };
}

async function writeAlone(db: Db, write: PreparedWrite): Promise<Settled> {
  try {
    const [settled] = await writeSubmissions(db, [write]);
    return settled ?? UNSETTLED;
  } catch (error) {
    // An order id stored meanwhile: the general transaction answers the 409 or the repeat.
    if (isUniqueViolation(error)) return UNSETTLED;
    throw error;
  }
}

function settle<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: "fulfilled", value }),
    (reason: unknown) => ({ status: "rejected", reason }),
  );
}

/**
 * A submission, batched; null when the statement left it to the general transaction (nothing of
 * it written). An order id of another customer is the contract's 409.
 */
export async function submitBatched(
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
    backdate: options.orderedAt !== undefined,
    maxAttempts: deps.config.enrichment.maxAttempts,
    enrichment: enrichmentOptions(options, store.accountId),
    requestId: options.requestId ?? null,
    unitPriceUsd: deps.config.enrichmentPriceUsd,
  });
  const settled = await batches(deps.db).submit(write);
  const hasOrder = write.orderId !== null;
  switch (settled.kind) {
    case "unsettled":
      return null;
    case "conflict":
      throw new AppError(
        "conflict",
        `order.id ${JSON.stringify(write.externalOrderId)} already belongs to a different customer of this store`,
      );
    case "created":
      return {
        customerId: write.customerId,
        ...(hasOrder ? { orderId: write.orderId as string } : {}),
        enrichmentStatus: "queued",
        newCustomer: true,
        newOrder: hasOrder,
      };
    case "returning":
      return {
        customerId: settled.customerId,
        ...(hasOrder ? { orderId: settled.priorOrderId ?? (write.orderId as string) } : {}),
        enrichmentStatus: answerFor(settled.status, settled.flipped),
        newCustomer: false,
        newOrder: hasOrder && settled.priorOrderId === null,
      };
  }
}

/** Enriched → existing; pending → queued; failed → retry for the submission that flipped it. */
function answerFor(status: string, flipped: boolean): EnrichmentStatusAnswer {
  if (status === "enriched") return "existing";
  return flipped ? "retry" : "queued";
}
