/**
 * What the enrichment benchmarks read back from Velvet's database (a SQLite file, read-only from
 * this process while the server runs, or a PostgreSQL URL: either-database.ts): row counts for the correctness checks, enrichments completed
 * in a time window, and the submission-to-result time of the customers submitted in a window.
 * Times are the server's own epoch-ms columns: customers.created_at (set when the order is
 * taken) and enrichments.enriched_at (set when the result is stored).
 */
import { type EitherDatabase, openEitherDatabase } from "./either-database.js";
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

async function withDb<T>(target: string, fn: (db: EitherDatabase) => Promise<T>): Promise<T> {
  const db = await openEitherDatabase(target);
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

async function count(db: EitherDatabase, sql: string, ...params: unknown[]): Promise<number> {
  const [row] = await db.all(sql, params);
  return Number(row?.n ?? 0);
}

/** Every count from one read transaction: one snapshot, while the server keeps writing. */
export function countRows(target: string): Promise<EnrichmentCounts> {
  return withDb(target, async (db) => {
    // SQLite: a deferred transaction reads one snapshot from its first read on; PostgreSQL:
    // repeatable read does the same.
    await db.all(db.engine === "sqlite" ? "begin" : "begin isolation level repeatable read");
    try {
      return await snapshotCounts(db);
    } finally {
      await db.all("commit");
    }
  });
}

async function snapshotCounts(db: EitherDatabase): Promise<EnrichmentCounts> {
  const status = (s: string) =>
    count(db, "select count(*) as n from customers where enrichment_status = ?", s);
  const outcomes = await db.all(
    "select outcome, count(*) as n from provider_results group by outcome",
  );
  return {
    customers: await count(db, "select count(*) as n from customers"),
    orders: await count(db, "select count(*) as n from orders"),
    usageCharges: await count(db, "select count(*) as n from usage_charges"),
    enriched: await status("enriched"),
    failed: await status("failed"),
    pending: await status("pending"),
    // Periodic tasks (retention) keep one row each for good: not work left to do.
    jobs: await count(
      db,
      "select count(*) as n from jobs where job_key is null or job_key not like 'periodic:%'",
    ),
    retried: await count(db, "select count(*) as n from enrichments where attempts > 1"),
    providerResults: Object.fromEntries(outcomes.map((o) => [String(o.outcome), Number(o.n)])),
  };
}

/**
 * Polls until no customer is pending and no job is left, or `timeoutMs` passes. Answers when
 * that happened (epoch ms, null on timeout) and the counts then.
 */
export async function waitUntilSettled(
  target: string,
  timeoutMs: number,
): Promise<{ settledAt: number | null; counts: EnrichmentCounts }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await countRows(target);
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

export function completionsBetween(target: string, from: number, to: number): Promise<Completions> {
  return withDb(target, async (db) => {
    const rows = await db.all(
      "select enriched_at as at from enrichments where enriched_at >= ? and enriched_at < ?",
      [from, to],
    );
    const seconds = Math.max(1, Math.round((to - from) / 1000));
    const bySecond = new Array<number>(seconds).fill(0);
    for (const { at } of rows) {
      const i = Math.min(seconds - 1, Math.floor((Number(at) - from) / 1000));
      bySecond[i] = (bySecond[i] ?? 0) + 1;
    }
    return { count: rows.length, perSec: rows.length / ((to - from) / 1000), bySecond };
  });
}

/** enriched_at − created_at for the customers submitted in [from, to) that were enriched. */
export function submissionToResult(
  target: string,
  from: number,
  to: number,
): Promise<LatencyStats & { submitted: number }> {
  return withDb(target, async (db) => {
    const rows = await db.all(
      `select c.created_at as created, e.enriched_at as enriched
       from customers c left join enrichments e on e.customer_id = c.id
       where c.created_at >= ? and c.created_at < ?`,
      [from, to],
    );
    const ms = rows
      .flatMap((r) =>
        r.enriched === null || r.enriched === undefined
          ? []
          : [Number(r.enriched) - Number(r.created)],
      )
      .sort((a, b) => a - b);
    return { submitted: rows.length, ...latencyStats(ms) };
  });
}
