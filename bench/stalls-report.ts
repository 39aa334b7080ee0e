/** The `stalls` phase's runs judged: the server's own figures, the table and the targets. */
import type { EnrichmentCounts } from "./enrichment-db.js";
import type { PacedResult } from "./paced-load.js";
import type { PhaseReport, Target } from "./phase.js";
import {
  histogramDelta,
  histogramMaxBound,
  histogramQuantile,
  type MetricsSnapshot,
} from "./scrape-metrics.js";

/** Every run at the top rate: order p99 at most this. */
export const MAX_ORDER_P99_MS = 25;
/** Enrichment keeps up: results stored in the window at least this share of the rate. */
const KEEP_UP_SHARE = 0.95;

export interface ServerFigures {
  /** velvet_event_loop_delay_seconds over the window (histogram_quantile), ms. */
  loopDelayP99Ms: number | null;
  /** The bucket bound the largest event-loop delay in the window is at or under, ms. */
  loopDelayMaxBoundMs: number | null;
  /**
   * velvet_thread_event_loop_delay_seconds{thread} over the window, ms: the job worker's thread
   * and the provider thread (each reports every 5 s, so the window's reports, about 10 s of 12).
   */
  workerLoopP99Ms: number | null;
  providerLoopP99Ms: number | null;
  /** nodejs_gc_duration_seconds over the window, every kind. */
  gcPauses: number;
  gcTotalMs: number;
  gcOver10Ms: number;
}

export interface StallRun {
  index: number;
  engine: "sqlite" | "postgres";
  rate: number;
  load: PacedResult;
  cpuCores: number | null;
  server: ServerFigures;
  completionsPerSec: number;
  drainSec: number | null;
  counts: EnrichmentCounts;
}

export function summariseServer(before: MetricsSnapshot, after: MetricsSnapshot): ServerFigures {
  const loop = after.get("velvet_event_loop_delay_seconds");
  const loopDelta =
    loop === undefined ? null : histogramDelta(before.get("velvet_event_loop_delay_seconds"), loop);
  const ms = (s: number | null) => (s === null ? null : s * 1000);
  const threadP99 = (thread: string) => {
    const key = `velvet_thread_event_loop_delay_seconds{thread="${thread}"}`;
    const h = after.get(key);
    return h === undefined ? null : ms(histogramQuantile(0.99, histogramDelta(before.get(key), h)));
  };
  let gcPauses = 0;
  let gcTotal = 0;
  let gcOver10 = 0;
  for (const [key, h] of after) {
    if (!key.startsWith("nodejs_gc_duration_seconds")) continue;
    const d = histogramDelta(before.get(key), h);
    gcPauses += d.count;
    gcTotal += d.sum;
    gcOver10 += d.count - (d.buckets.find((b) => b.le === 0.01)?.count ?? d.count);
  }
  return {
    loopDelayP99Ms: loopDelta === null ? null : ms(histogramQuantile(0.99, loopDelta)),
    loopDelayMaxBoundMs: loopDelta === null ? null : ms(histogramMaxBound(loopDelta)),
    workerLoopP99Ms: threadP99("worker"),
    providerLoopP99Ms: threadP99("providers"),
    gcPauses,
    gcTotalMs: gcTotal * 1000,
    gcOver10Ms: gcOver10,
  };
}

const f = (n: number | null, digits = 1) => (n === null ? "–" : n.toFixed(digits));

function keptUp(r: StallRun): boolean {
  const c = r.counts;
  return (
    r.completionsPerSec >= KEEP_UP_SHARE * r.rate &&
    c.pending === 0 &&
    c.jobs === 0 &&
    c.failed === 0 &&
    c.enriched === c.customers
  );
}

function answeredAll(r: StallRun): boolean {
  const l = r.load;
  return l.correct === l.sent && l.non2xx === 0 && l.errors === 0 && l.mismatches === 0;
}

export function stallsReport(
  runs: StallRun[],
  settings: { warmupSec: number; durationSec: number },
): PhaseReport {
  const top = Math.max(...runs.map((r) => r.rate));
  const judged = runs.filter((r) => r.rate === top);
  const table = [
    "| Run | Engine | New customers/s | Answered 200 | Order p50 (ms) | Order p99 (ms) | Order max (ms) | Event-loop delay p99 (ms) | Largest delay ≤ (ms) | Worker / provider thread delay p99 (ms) | GC pauses (total ms, over 10 ms) | Stored/s | Serve CPU (cores) |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map(
      (r) =>
        `| ${r.index} | ${r.engine === "sqlite" ? "SQLite" : "PostgreSQL"} | ${r.rate} | ${r.load.correct}/${r.load.sent} | ${r.load.window.p50Ms.toFixed(2)} | ${r.load.window.p99Ms.toFixed(2)} | ${r.load.window.maxMs.toFixed(1)} | ${f(r.server.loopDelayP99Ms)} | ${f(r.server.loopDelayMaxBoundMs, 0)} | ${f(r.server.workerLoopP99Ms, 0)} / ${f(r.server.providerLoopP99Ms, 0)} | ${r.server.gcPauses} (${r.server.gcTotalMs.toFixed(0)}, ${r.server.gcOver10Ms}) | ${r.completionsPerSec.toFixed(0)} | ${f(r.cpuCores, 2)} |`,
    ),
    "",
    `Providers answer every lookup in 2 s; ${settings.warmupSec} s of submissions before a ${settings.durationSec} s measured window; the worker runs in \`velvet serve\`. Order latencies are the client's, for the requests sent in the window; event-loop delay and GC are the server's own metrics over the window (the helper threads' as each last reported).`,
  ].join("\n");
  const worst = (rs: StallRun[]) =>
    rs.reduce((w, r) => (r.load.window.p99Ms > w.load.window.p99Ms ? r : w));
  const targets: Target[] = (["sqlite", "postgres"] as const).flatMap((engine) => {
    const rs = judged.filter((r) => r.engine === engine);
    if (rs.length === 0) return [];
    const label = engine === "sqlite" ? "SQLite" : "PostgreSQL";
    const w = worst(rs);
    return [
      {
        name: `${label}, ${top} new customers/s with 2 s providers: order p99 ≤ ${MAX_ORDER_P99_MS} ms in each of ${rs.length} runs`,
        pass: rs.every((r) => r.load.window.p99Ms <= MAX_ORDER_P99_MS),
        detail: `p99 ${rs.map((r) => r.load.window.p99Ms.toFixed(1)).join(", ")} ms; max ${rs.map((r) => r.load.window.maxMs.toFixed(0)).join(", ")} ms; worst run ${w.index}: event-loop delay p99 ${f(w.server.loopDelayP99Ms)} ms`,
      },
      {
        name: `${label}: every order answered 200, enrichment keeping up (≥ ${KEEP_UP_SHARE * 100} % of the rate stored in the window, all enriched after)`,
        pass: rs.every((r) => answeredAll(r) && keptUp(r)),
        detail: rs
          .map(
            (r) =>
              `run ${r.index}: ${r.load.correct}/${r.load.sent} answered, ${r.completionsPerSec.toFixed(0)} stored/s, ${r.counts.enriched}/${r.counts.customers} enriched, ${r.counts.failed} failed, settled ${r.drainSec === null ? "never" : `${r.drainSec.toFixed(1)} s`} after`,
          )
          .join("; "),
      },
    ];
  });
  return { table, timing: settings, targets, raw: { runs, settings } };
}
