/**
 * `npm run bench`: runs each benchmark phase in turn, prints its markdown table, writes its raw
 * figures to bench/results/<phase>.json, and exits non-zero when any target is missed or
 * anything fails. Bounded: a watchdog kills every child and exits when the phases overrun their
 * budget; children are killed on every exit path.
 *
 * Settings (environment): BENCH_DURATION (measured seconds per run, 10), BENCH_WARMUP (3),
 * BENCH_CONNECTIONS (50), BENCH_PHASES (comma-separated names, all by default),
 * BENCH_POOLER_ROUNDS (the orders-pooler phase's rounds, 2),
 * BENCH_PG_URL (the PostgreSQL server of the orders-pg, orders-pooler and webhooks phases, which make and drop their own
 * database; default postgres://postgres@127.0.0.1:5432/postgres), BENCH_PG_ROUNDS (2),
 * BENCH_SQLITE_ROUNDS (2), BENCH_PG_NODE_CORES (the held nodes' CPU budget, 0.25) and
 * BENCH_PG_CAP_PERIOD_MS (its quota period, 100), BENCH_PG_HELD_LOAD (per-node or split: how the held
 * runs share the connections, split), BENCH_PG_QUIET_RATE (the paced quiet-store run's
 * new customers a second, 100), BENCH_WEBHOOK_RATES (the webhooks phase's deliveries a second,
 * "200,300"), PGBOUNCER (the PgBouncer of orders-pg's pooled runs and of orders-pooler, /usr/sbin/pgbouncer),
 * BENCH_STALLS_RUNS, BENCH_STALLS_RATES, BENCH_STALLS_ENGINES and BENCH_STALLS_DURATION (the stalls
 * phase: bench/stalls.ts), BENCH_SOAK_SEC and BENCH_SOAK_RATE (the jobs-soak phase's seconds, 240, and jobs a second, 300),
 * BENCH_NODE_FLAGS (extra node flags for the Velvet server, e.g. --cpu-prof), BENCH_LOG_LEVEL
 * (the Velvet server's LOG_LEVEL, info), BENCH_KEEP=1
 * (keep the temporary databases and server logs).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { killAllChildren } from "./children.js";
import { dashboardPhase } from "./dashboard.js";
import { enrichmentPhase } from "./enrichment.js";
import { importPhase } from "./import.js";
import { jobsSoakPhase } from "./jobs-soak.js";
import { metricsPhase } from "./metrics-cost.js";
import { ordersPhase } from "./orders.js";
import { ordersPoolerPhase } from "./orders-pooler.js";
import { ordersPostgresPhase } from "./orders-postgres.js";
import { pacingPhase } from "./pacing.js";
import type { BenchSettings, Phase, Target } from "./phase.js";
import { stallsPhase } from "./stalls.js";
import { webhooksPhase } from "./webhooks.js";

const PHASES: Phase[] = [
  ordersPhase,
  ordersPostgresPhase,
  ordersPoolerPhase,
  metricsPhase,
  dashboardPhase,
  enrichmentPhase,
  stallsPhase,
  importPhase,
  webhooksPhase,
  jobsSoakPhase,
  pacingPhase,
];
const RESULTS_DIR = path.resolve("bench", "results");

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0)
    throw new Error(`${name} must be a number >= 0, got "${raw}"`);
  return value;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(): Promise<number> {
  const settings: BenchSettings = {
    durationSec: Math.max(1, positive("BENCH_DURATION", 10)),
    warmupSec: positive("BENCH_WARMUP", 3),
    connections: Math.max(1, Math.round(positive("BENCH_CONNECTIONS", 50))),
  };
  const wanted = (process.env.BENCH_PHASES ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const phases = wanted.length === 0 ? PHASES : PHASES.filter((p) => wanted.includes(p.name));
  if (phases.length === 0)
    throw new Error(`BENCH_PHASES names no phase; known: ${PHASES.map((p) => p.name).join(", ")}`);

  const budgetSec = phases.reduce((sum, p) => sum + p.budgetSec(settings), 0);
  const watchdog = setTimeout(() => {
    log(`watchdog: still running after ${budgetSec} s; killing the servers`);
    killAllChildren();
    process.exit(3);
  }, budgetSec * 1000);
  watchdog.unref();

  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  const machine = {
    node: process.version,
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? "unknown",
    loadAverageAtStart: os.loadavg(),
  };
  log(
    `${machine.cpus} × ${machine.cpuModel}, node ${machine.node}, load average ${machine.loadAverageAtStart.map((l) => l.toFixed(2)).join(" ")}`,
  );

  const failed: Target[] = [];
  for (const phase of phases) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `velvet-bench-${phase.name}-`));
    log(`phase ${phase.name}: ${phase.title} (work dir ${dir})`);
    try {
      const report = await phase.run({ settings, dir, log });
      const result = {
        phase: phase.name,
        title: phase.title,
        date: new Date().toISOString(),
        machine,
        settings,
        targets: report.targets,
        raw: report.raw,
      };
      fs.writeFileSync(
        path.join(RESULTS_DIR, `${phase.name}.json`),
        `${JSON.stringify(result, null, 2)}\n`,
      );
      const timing = report.timing === undefined ? settings : report.timing;
      const load =
        timing === null
          ? ""
          : `, ${settings.connections} connections, ${timing.durationSec} s per run after a ${timing.warmupSec} s warm-up`;
      const conditions = `_${machine.cpus} × ${machine.cpuModel}, Node ${machine.node}${load}, ${result.date.slice(0, 10)}._`;
      process.stdout.write(`\n### ${phase.title}\n\n${conditions}\n\n${report.table}\n\n`);
      for (const t of report.targets) {
        process.stdout.write(`- ${t.pass ? "PASS" : "FAIL"} ${t.name}: ${t.detail}\n`);
        if (!t.pass) failed.push(t);
      }
    } finally {
      if (process.env.BENCH_KEEP === "1") log(`kept ${dir}`);
      else fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  clearTimeout(watchdog);
  process.stdout.write(
    `\n${failed.length === 0 ? "All targets met." : `${failed.length} target(s) missed.`} Raw figures in ${path.relative(process.cwd(), RESULTS_DIR)}/.\n`,
  );
  return failed.length === 0 ? 0 : 1;
}

process.on("exit", killAllChildren);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    log(`${signal}: stopping`);
    killAllChildren();
    process.exit(130);
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    killAllChildren();
    process.exitCode = 2;
  },
);
