/**
 * Enrichment: one `velvet serve` process (SQLite, worker on) against the four
 * provider fakes, which run in a process of their own, new customers submitted at a fixed rate
 * (paced-load.ts). Four runs, each on a fresh database:
 *   1. idle: worker off, the order endpoint's latency at the rate, for comparison;
 *   2. slow providers (every lookup answered in 2–5 s): enrichments completed per second in a
 *      steady-state window, and the order endpoint's latency meanwhile (same rate, same pool);
 *   3. the same with the worker in a `velvet worker` process beside `velvet serve` (no target:
 *      it shows what moving the worker out of the HTTP process does on SQLite);
 *   4. instant providers, a modest rate: time from submission to stored result.
 * After each run the database is checked: every submission answered 200 with a correct body,
 * one customer, order and charge each, and (worker on) every customer enriched once all
 * finished, none failed, no job left, every provider's lookup a match.
 */
import fs from "node:fs";
import path from "node:path";
import type { StartedChild } from "./children.js";
import { measureCpu } from "./cpu.js";
import { enrichmentTargets } from "./enrichment-checks.js";
import {
  completionsBetween,
  countRows,
  submissionToResult,
  waitUntilSettled,
} from "./enrichment-db.js";
import type { EnrichmentRun } from "./enrichment-run.js";
import {
  DRAIN_TIMEOUT_MS,
  instantRate,
  loadedRate,
  SLOW_DELAY,
  STEADY_AFTER_SEC,
  VELVET_SETTINGS,
} from "./enrichment-settings.js";
import { enrichmentTable } from "./enrichment-table.js";
import { startFakeProvidersProcess } from "./fake-providers-process.js";
import { runTag } from "./order-bodies.js";
import { counter, velvetNewCustomers } from "./order-sources.js";
import { runPaced } from "./paced-load.js";
import type { Phase, PhaseContext, PhaseReport } from "./phase.js";
import { startVelvet } from "./velvet-process.js";
import { startVelvetWorker } from "./velvet-worker-process.js";

const PATH = "/api/v1/orders";

export const enrichmentPhase: Phase = {
  name: "enrichment",
  title: "Enrichment: throughput with 2–5 s providers, order latency meanwhile, time to result",
  budgetSec: (s) =>
    3 * (Math.max(s.warmupSec, STEADY_AFTER_SEC) + s.durationSec) +
    (s.warmupSec + s.durationSec) +
    3 * (DRAIN_TIMEOUT_MS / 1000) +
    120,
  run: runEnrichmentPhase,
};

interface RunSpec {
  name: EnrichmentRun["name"];
  providers: string;
  fakesEnv: Record<string, string>;
  worker: EnrichmentRun["worker"];
  ratePerSec: number;
  warmupSec: number;
}

async function runEnrichmentPhase(context: PhaseContext): Promise<PhaseReport> {
  const { warmupSec } = context.settings;
  const steadyWarmup = Math.max(warmupSec, STEADY_AFTER_SEC);
  const runs: EnrichmentRun[] = [];

  context.log(`fake providers answering in ${SLOW_DELAY} ms, in their own process`);
  const slow = await startFakeProvidersProcess(subdir(context, "fakes-slow"), SLOW_DELAY);
  try {
    const common = { fakesEnv: slow.env, ratePerSec: loadedRate(), warmupSec: steadyWarmup };
    runs.push(
      await measureRun(context, {
        ...common,
        name: "idle",
        providers: "not called (worker off)",
        worker: "off",
      }),
    );
    runs.push(
      await measureRun(context, {
        ...common,
        name: "slow",
        providers: "2–5 s each",
        worker: "in-serve",
      }),
    );
    runs.push(
      await measureRun(context, {
        ...common,
        name: "split",
        providers: "2–5 s each",
        worker: "separate",
      }),
    );
  } finally {
    await slow.stop();
  }

  context.log("fake providers answering at once, in their own process");
  const instant = await startFakeProvidersProcess(subdir(context, "fakes-instant"), "0");
  try {
    runs.push(
      await measureRun(context, {
        name: "instant",
        providers: "instant",
        fakesEnv: instant.env,
        worker: "in-serve",
        ratePerSec: instantRate(),
        warmupSec: Math.max(1, warmupSec),
      }),
    );
  } finally {
    await instant.stop();
  }

  return {
    table: enrichmentTable(runs, context.settings),
    targets: enrichmentTargets(runs),
    raw: { velvetSettings: VELVET_SETTINGS, slowProviderDelayMs: SLOW_DELAY, runs },
  };
}

async function measureRun(context: PhaseContext, spec: RunSpec): Promise<EnrichmentRun> {
  const { connections, durationSec } = context.settings;
  const env = { ...VELVET_SETTINGS, ...spec.fakesEnv };
  const dir = subdir(context, spec.name);
  context.log(`${spec.name}: velvet serve (SQLite), worker ${spec.worker}`);
  const serveEnv = { ...env, WORKER_ENABLED: spec.worker === "in-serve" ? "true" : "false" };
  const velvet = await startVelvet({ dir, env: serveEnv });
  let worker: StartedChild | null = null;
  try {
    if (spec.worker === "separate") {
      worker = await startVelvetWorker({ dir, databaseFile: velvet.databaseFile, env });
    }
    context.log(
      `  ${spec.name}: ${spec.ratePerSec}/s new customers for ${spec.warmupSec} s + ${durationSec} s measured, up to ${connections} connections`,
    );
    const source = velvetNewCustomers(runTag(), counter());
    const { value: load, cpu } = await measureCpu(velvet.child.process.pid, () =>
      runPaced({
        url: velvet.url,
        path: PATH,
        headers: { authorization: `Bearer ${velvet.apiKey}` },
        connections,
        ratePerSec: spec.ratePerSec,
        warmupSec: spec.warmupSec,
        durationSec,
        source,
      }),
    );
    const streamEnd = Date.now();
    context.log(
      `  ${spec.name}: answered ${load.correct}/${load.sent}, p50 ${load.window.p50Ms.toFixed(2)} ms, p99 ${load.window.p99Ms.toFixed(2)} ms, max ${load.window.maxMs.toFixed(1)} ms; serve ${cpu.serverCores?.toFixed(2)} cores`,
    );
    const { fakesEnv: _, ...described } = spec;
    const run = { ...described, load, cpu, drainSec: null };
    if (spec.worker === "off") {
      await new Promise((r) => setTimeout(r, 500));
      return { ...run, counts: await countRows(velvet.databaseFile) };
    }
    const settled = await waitUntilSettled(velvet.databaseFile, DRAIN_TIMEOUT_MS);
    const drainSec = settled.settledAt === null ? null : (settled.settledAt - streamEnd) / 1000;
    const completions = await completionsBetween(
      velvet.databaseFile,
      load.windowStart,
      load.windowEnd,
    );
    const toResult = await submissionToResult(
      velvet.databaseFile,
      load.windowStart,
      load.windowEnd,
    );
    context.log(
      `  ${spec.name}: ${completions.perSec.toFixed(1)} enrichments/s in the window; submit→stored p50 ${toResult.p50Ms} ms; all settled ${drainSec ?? "never"} s after the stream`,
    );
    return { ...run, counts: settled.counts, drainSec, completions, toResult };
  } finally {
    await worker?.stop();
    await velvet.stop();
  }
}

function subdir(context: PhaseContext, name: string): string {
  const dir = path.join(context.dir, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
