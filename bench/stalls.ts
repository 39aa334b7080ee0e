/**
 * Stalls while enriching: `velvet serve` (worker in the process, as by default) taking new
 * customers on a schedule while each is enriched by providers that answer in exactly 2 s, so
 * about 2 × rate enrichments are in flight and their answers are stored as fast as orders arrive.
 * What a store's checkout hook meets is the order answer's latency; what holds it is anything on
 * the serving thread that runs for more than a few milliseconds at once. So each run reports the
 * order latency (p50, p99, max) beside the process's own event-loop delay
 * (`velvet_event_loop_delay_seconds`, scraped from its metrics listener at the window's start
 * and end: histogram_quantile over the window, as an operator's dashboard shows it) and its
 * garbage-collection pauses (`nodejs_gc_duration_seconds`).
 *
 * Runs alternate engines (SQLite, then PostgreSQL on BENCH_PG_URL's server), each on a fresh
 * database: one pair at 200 new customers a second, then BENCH_STALLS_RUNS pairs (5) at 300.
 * The target is every 300/s run on SQLite (the default engine) and PostgreSQL: every order
 * answered 200, order p99 ≤ 25 ms, enrichment keeping up (results stored in the window ≥ 95 % of
 * the rate, all settled after). BENCH_STALLS_ENGINES (sqlite,postgres) and BENCH_STALLS_RATES
 * ("200,300": the first rate once, the last one BENCH_STALLS_RUNS times) narrow it;
 * BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=…" profiles the server for bench/stall-profile.ts.
 */

import fs from "node:fs";
import path from "node:path";
import { freePort } from "./children.js";
import { measureCpu } from "./cpu.js";
import { completionsBetween, waitUntilSettled } from "./enrichment-db.js";
import { DRAIN_TIMEOUT_MS, VELVET_SETTINGS } from "./enrichment-settings.js";
import { startFakeProvidersProcess } from "./fake-providers-process.js";
import { runTag } from "./order-bodies.js";
import { counter, velvetNewCustomers } from "./order-sources.js";
import { runPaced } from "./paced-load.js";
import { createDatabase } from "./pg-database.js";
import type { Phase, PhaseContext, PhaseReport } from "./phase.js";
import { type MetricsSnapshot, scrapeMetrics } from "./scrape-metrics.js";
import { type StallRun, stallsReport, summariseServer } from "./stalls-report.js";
import { startVelvet } from "./velvet-process.js";

const PROVIDER_DELAY_MS = "2000";
const WARMUP_SEC = 6;
const DURATION_SEC = Number(process.env.BENCH_STALLS_DURATION ?? 12);
const RUNS = Math.max(1, Number(process.env.BENCH_STALLS_RUNS ?? 5));
const ENGINES = (process.env.BENCH_STALLS_ENGINES ?? "sqlite,postgres")
  .split(",")
  .map((e) => e.trim())
  .filter((e): e is StallRun["engine"] => e === "sqlite" || e === "postgres");
const RATES = (process.env.BENCH_STALLS_RATES ?? "200,300")
  .split(",")
  .map(Number)
  .filter((r) => Number.isFinite(r) && r > 0);

function plan(): Array<{ rate: number; engine: StallRun["engine"] }> {
  const first = RATES.length > 1 ? [RATES[0] as number] : [];
  const last = RATES[RATES.length - 1] ?? 300;
  const rates = [...first, ...Array.from({ length: RUNS }, () => last)];
  return rates.flatMap((rate) => ENGINES.map((engine) => ({ rate, engine })));
}

export const stallsPhase: Phase = {
  name: "stalls",
  title: "Stalls while enriching: order latency and event-loop delay with 2 s providers",
  budgetSec: () => plan().length * (WARMUP_SEC + DURATION_SEC + 60) + 120,
  run: runStallsPhase,
};

async function runStallsPhase(context: PhaseContext): Promise<PhaseReport> {
  context.log(`fake providers answering in ${PROVIDER_DELAY_MS} ms, in their own process`);
  const fakes = await startFakeProvidersProcess(subdir(context, "fakes"), PROVIDER_DELAY_MS);
  const runs: StallRun[] = [];
  try {
    for (const [i, { rate, engine }] of plan().entries()) {
      runs.push(await measureRun(context, i + 1, rate, engine, fakes.env));
    }
  } finally {
    await fakes.stop();
  }
  return stallsReport(runs, { warmupSec: WARMUP_SEC, durationSec: DURATION_SEC });
}

async function measureRun(
  context: PhaseContext,
  index: number,
  rate: number,
  engine: StallRun["engine"],
  fakesEnv: Record<string, string>,
): Promise<StallRun> {
  const dir = subdir(context, `run-${index}-${engine}-${rate}`);
  const database = engine === "postgres" ? await createDatabase() : null;
  const metricsPort = await freePort();
  const velvet = await startVelvet({
    dir,
    databaseUrl: database?.url,
    env: {
      ...VELVET_SETTINGS,
      ...fakesEnv,
      WORKER_ENABLED: "true",
      METRICS_PORT: String(metricsPort),
    },
  });
  const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  try {
    context.log(
      `run ${index}: ${engine}, ${rate} new customers/s for ${WARMUP_SEC} s + ${DURATION_SEC} s measured`,
    );
    let atWindowStart: Promise<MetricsSnapshot> | null = null;
    const timer = setTimeout(() => {
      atWindowStart = scrapeMetrics(metricsUrl);
    }, WARMUP_SEC * 1000);
    const { value: load, cpu } = await measureCpu(velvet.child.process.pid, () =>
      runPaced({
        url: velvet.url,
        path: "/api/v1/orders",
        headers: { authorization: `Bearer ${velvet.apiKey}` },
        connections: context.settings.connections,
        ratePerSec: rate,
        warmupSec: WARMUP_SEC,
        durationSec: DURATION_SEC,
        source: velvetNewCustomers(runTag(), counter()),
      }),
    );
    clearTimeout(timer);
    const atWindowEnd = await scrapeMetrics(metricsUrl);
    const before = (await (atWindowStart ?? Promise.resolve(new Map()))) as MetricsSnapshot;
    const server = summariseServer(before, atWindowEnd);
    const streamEnd = Date.now();
    const target = velvet.databaseFile;
    const completions = await completionsBetween(target, load.windowStart, load.windowEnd);
    const settled = await waitUntilSettled(target, DRAIN_TIMEOUT_MS);
    const run: StallRun = {
      index,
      engine,
      rate,
      load,
      cpuCores: cpu.serverCores ?? null,
      server,
      completionsPerSec: completions.perSec,
      drainSec: settled.settledAt === null ? null : (settled.settledAt - streamEnd) / 1000,
      counts: settled.counts,
    };
    context.log(
      `  run ${index}: answered ${load.correct}/${load.sent}, order p50 ${load.window.p50Ms.toFixed(2)} ms, p99 ${load.window.p99Ms.toFixed(2)} ms, max ${load.window.maxMs.toFixed(1)} ms; event-loop delay p99 ${fmt(server.loopDelayP99Ms)} ms (max ≤ ${fmt(server.loopDelayMaxBoundMs)}), worker thread ${fmt(server.workerLoopP99Ms)} ms, provider thread ${fmt(server.providerLoopP99Ms)} ms; GC ${server.gcPauses} pauses, ${server.gcTotalMs.toFixed(0)} ms, ${server.gcOver10Ms} over 10 ms; ${completions.perSec.toFixed(0)} stored/s; serve ${cpu.serverCores?.toFixed(2)} cores`,
    );
    return run;
  } finally {
    await velvet.stop();
    await database?.drop();
  }
}

function fmt(n: number | null): string {
  return n === null ? "–" : n.toFixed(1);
}

function subdir(context: PhaseContext, name: string): string {
  const dir = path.join(context.dir, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
