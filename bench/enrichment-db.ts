/**
 * What the enrichment benchmark reads back from Velvet's SQLite file (read-only, from this
 * process, while the server runs): row counts for the correctness checks, enrichments completed
 * in a time window, and the submission-to-result time of the customers submitted in a window.
 * Times are the server's own epoch-ms columns: customers.created_at (set when the order is
 * taken) and enrichments.enriched_at (set when the result is stored).
 */
import SQLite from "better-sqlite3";
import { type LatencyStats, latencyStats } from "./paced-load.js";

export interface EnrichmentCounts {
  customers: number;
  orders: number;
  usageCharges: number;
  enriched: number;
  failed: number;
  pending: number;
  /** Jobs still in the table (enrichments not finished, or kept after failing). */
  jobs: number;
  /** Enrichments that needed more than one attempt. */
  retried: number;
  /** provider_results rows by outcome (matched, not_found, transient, permanent). */
  providerResults: Record<string, number>;
}

function withDb<T>(file: string, fn: (db: SQLite.Database) => T): T {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

function count(db: SQLite.Database, sql: string, ...params: unknown[]): number {
  return (db.prepare(sql).get(...params) as { n: number }).n;
}

/** Every count from one read transaction: one snapshot, while the server keeps writing. */
export function countRows(file: string): EnrichmentCounts {
  return withDb(file, (db) => db.transaction(() => snapshotCounts(db))());
}

function snapshotCounts(db: SQLite.Database): EnrichmentCounts {
  const status = (s: string) =>
    count(db, "select count(*) as n from customers where enrichment_status = ?", s);
  const outcomes = db
    .prepare("select outcome, count(*) as n from provider_results group by outcome")
    .all() as Array<{ outcome: string; n: number }>;
  return {
    customers: count(db, "select count(*) as n from customers"),
    orders: count(db, "select count(*) as n from orders"),
    usageCharges: count(db, "select count(*) as n from usage_charges"),
    enriched: status("enriched"),
    failed: status("failed"),
    pending: status("pending"),
    // Periodic tasks (retention) keep one row each for good: not work left to do.
    jobs: count(
      db,
      "select count(*) as n from jobs where job_key is null or job_key not like 'periodic:%'",
    ),
    retried: count(db, "select count(*) as n from enrichments where attempts > 1"),
    providerResults: Object.fromEntries(outcomes.map((o) => [o.outcome, o.n])),
  };
}

/**
 * Polls until no customer is pending and no job is left, or `timeoutMs` passes. Answers when
 * that happened (epoch ms, null on timeout) and the counts then.
 */
export async function waitUntilSettled(
  file: string,
  timeoutMs: number,
): Promise<{ settledAt: number | null; counts: EnrichmentCounts }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = countRows(file);
    if (counts.pending === 0 && counts.jobs === 0) return { settledAt: Date.now(), counts };
    if (Date.now() >= deadline) return { settledAt: null, counts };
    await new Promise((r) => setTimeout(r, 200));
  }
}

export interface Completions {
  /** Enrichments whose result was stored in [from, to). */
  count: number;
  perSec: number;
  /** The same, second by second: shows whether the rate held through the window. */
  bySecond: number[];
}

export function completionsBetween(file: string, from: number, to: number): Completions {
  return withDb(file, (db) => {
    const rows = db
      .prepare(
        "select enriched_at as at from enrichments where enriched_at >= ? and enriched_at < ?",
      )
      .all(from, to) as Array<{ at: number }>;
    const seconds = Math.max(1, Math.round((to - from) / 1000));
    const bySecond = new Array<number>(seconds).fill(0);
    for (const { at } of rows) {
      const i = Math.min(seconds - 1, Math.floor((at - from) / 1000));
      bySecond[i] = (bySecond[i] ?? 0) + 1;
    }
    return { count: rows.length, perSec: rows.length / ((to - from) / 1000), bySecond };
  });
}

/** enriched_at − created_at for the customers submitted in [from, to) that were enriched. */
export function submissionToResult(
  file: string,
  from: number,
  to: number,
): LatencyStats & { submitted: number } {
  return withDb(file, (db) => {
    const rows = db
      .prepare(
        `select c.created_at as created, e.enriched_at as enriched
         from customers c left join enrichments e on e.customer_id = c.id
         where c.created_at >= ? and c.created_at < ?`,
      )
      .all(from, to) as Array<{ created: number; enriched: number | null }>;
    const ms = rows
      .flatMap((r) => (r.enriched === null ? [] : [r.enriched - r.created]))
      .sort((a, b) => a - b);
    return { submitted: rows.length, ...latencyStats(ms) };
  });
}
