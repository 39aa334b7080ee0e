/**
 * PostgreSQL: whole order submissions, new and returning customers alike, in ONE statement, for
 * one submission or a batch of them (submission-batches.ts groups the ones that arrive while the
 * database is busy). A single statement is its own transaction: all-or-nothing, answered only
 * after its commit, one round trip, one pool checkout and one commit however many it carries.
 *
 * The statement's text and the rules it follows: submission-statement-sql.ts.
 */
import { CompiledQuery } from "kysely";
import type { Db } from "../../db/connect.js";
import type { EnrichmentStatus } from "../../db/schema.js";
import { JOB_PRIORITIES } from "../../jobs/claim-jobs.js";
import { newId } from "../../lib/ids.js";
import type { EnrichmentOptions } from "../enrichment/enqueue-enrichment.js";
import { customerColumns } from "./customer-columns.js";
import type { OrderSubmission } from "./order-request.js";
import { COLUMNS, type Column, SUBMISSIONS_SQL } from "./submission-statement-sql.js";

export interface SubmissionWrite {
  /** submit-order.ts's StoreRef (not imported: submit-order.ts imports this file). */
  store: { storeId: string; accountId: string };
  submission: OrderSubmission;
  now: number;
  /** The customer's and the order's date (an import's order date; else now). */
  datedAt: number;
  /** An imported order: a returning customer is dated back to it when it is earlier. */
  backdate: boolean;
  maxAttempts: number;
  enrichment: EnrichmentOptions;
  requestId: string | null;
  unitPriceUsd: string;
}

/** A write with its row ids drawn (used only for what is new). */
export interface PreparedWrite {
  customerId: string;
  orderId: string | null;
  /** The platform order id, for the conflict's message. */
  externalOrderId: string | null;
  row: Record<Column, string | number | boolean | null>;
}

export function prepareWrite(w: SubmissionWrite): PreparedWrite {
  const { submission: s, store, now, datedAt } = w;
  const customerId = newId(now);
  const orderId = s.order === null ? null : newId(datedAt);
  return {
    customerId,
    orderId,
    externalOrderId: s.order?.id ?? null,
    row: {
      customer_id: customerId,
      ...customerColumns(store, s),
      dated_at: datedAt,
      backdate: w.backdate,
      now,
      job_id: newId(now),
      alerts: w.enrichment.alerts,
      max_attempts: w.maxAttempts,
      priority: JOB_PRIORITIES[w.enrichment.priority],
      request_id: w.requestId,
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

/** What the statement did with one submission. */
export type Settled =
  | { kind: "created" }
  | {
      kind: "returning";
      customerId: string;
      status: EnrichmentStatus;
      /** This submission flipped a failed enrichment back to pending. */
      flipped: boolean;
      /** The order already stored under this order id (a repeat), else null. */
      priorOrderId: string | null;
    }
  | { kind: "conflict" }
  | { kind: "unsettled" };

interface ResultRow {
  n: number;
  created: boolean;
  known_id: string | null;
  status: EnrichmentStatus | null;
  prior_order_id: string | null;
  flipped: boolean;
  conflict: boolean;
}

/**
 * Writes `writes` in one statement and answers each, in order. Throws, having written nothing,
 * when any row breaks a constraint (a new customer's order id stored after the snapshot).
 * Callers pass at most one write per customer and per order id (see submission-batches.ts).
 */
export async function writeSubmissions(
  db: Db,
  writes: readonly PreparedWrite[],
): Promise<Settled[]> {
  // Rows in key order: two batches that share customers wait on each other in one order only
  // (never a deadlock), whatever order their submissions arrived in.
  const rows = writes.length > 1 ? [...writes].sort(compareKeys) : writes;
  const parameters = COLUMNS.map(([name]) => rows.map((w) => w.row[name]));
  // On connections that never scan a table where an index serves (db/connect.ts, `indexed`).
  const result = await db.indexed.executeQuery<ResultRow>(
    CompiledQuery.raw(SUBMISSIONS_SQL, parameters),
  );
  const byWrite = new Map<PreparedWrite, Settled>();
  for (const r of result.rows) {
    const write = rows[r.n - 1];
    if (write !== undefined) byWrite.set(write, settledOf(r));
  }
  return writes.map((w) => byWrite.get(w) ?? { kind: "unsettled" });
}

function settledOf(r: ResultRow): Settled {
  if (r.created) return { kind: "created" };
  if (r.known_id !== null && r.status !== null) {
    return {
      kind: "returning",
      customerId: r.known_id,
      status: r.status,
      flipped: r.flipped,
      priorOrderId: r.prior_order_id,
    };
  }
  return r.conflict ? { kind: "conflict" } : { kind: "unsettled" };
}

function compareKeys(a: PreparedWrite, b: PreparedWrite): number {
  const x = `${a.row.store_id} ${a.row.email_normalized}`;
  const y = `${b.row.store_id} ${b.row.email_normalized}`;
  return x < y ? -1 : x > y ? 1 : 0;
}
