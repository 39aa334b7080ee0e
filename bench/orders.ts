/**
 * Order intake: POST /api/v1/orders on `velvet serve` (SQLite) against two floors, each in its
 * own process, same load generator, same bodies. Each round:
 *   1. the one-insert floor (baseline-server.ts), every request a new customer with an order;
 *   2. the same-writes floor (same-writes-server.ts): a new customer's rows as Velvet writes
 *      them, in Velvet's schema, one transaction a request;
 *   3. Velvet, every request a new customer with an order (the targets: against both floors).
 * After the rounds: Velvet, repeats of the customers and orders it answered (existing customer,
 * existing order). Each run: warm-up (discarded), then the measured duration. The databases
 * are counted after the rounds (both Velvet's and the same-writes floor's: one customer, order,
 * charge and job per new customer) and Velvet's after the repeats (which write nothing).
 */
import fs from "node:fs";
import SQLite from "better-sqlite3";
import { startBaseline, startSameWritesFloor } from "./baseline-process.js";
import { type CpuUsage, measureCpu } from "./cpu.js";
import { type LoadResult, type RequestSource, runLoad } from "./load.js";
import { medianRatio } from "./median-ratio.js";
import { runTag } from "./order-bodies.js";
import {
  baselineNewCustomers,
  counter,
  velvetNewCustomers,
  velvetRepeats,
} from "./order-sources.js";
import { ordersTable } from "./orders-table.js";
import type { Phase, PhaseContext, PhaseReport, Target } from "./phase.js";
import { startVelvet } from "./velvet-process.js";

const PATH = "/api/v1/orders";
/** SQLite: Velvet's new customers against the one-insert floor of the same run. */
export const REQUIRED_RATIO = 0.6;
/** SQLite: Velvet's new customers against the same-writes floor of the same run. */
export const REQUIRED_SAME_WRITES_RATIO = 0.85;
export const MAX_P99_MS = 25;
const ROUNDS = Math.max(1, Number(process.env.BENCH_SQLITE_ROUNDS ?? 2));

export interface MeasuredRun extends LoadResult {
  name: string;
  cpu: CpuUsage;
  /** The round of a phase that alternates its runs (1, 2, …). */
  round?: number;
}

export interface RowCounts {
  customers: number;
  orders: number;
  usage_charges: number;
  jobs: number;
}

export const ordersPhase: Phase = {
  name: "orders",
  title: "Order intake: POST /api/v1/orders",
  budgetSec: (s) => (3 * ROUNDS + 1) * (s.warmupSec + s.durationSec) + 150,
  run: runOrdersPhase,
};

async function runOrdersPhase(context: PhaseContext): Promise<PhaseReport> {
  const run = runTag();
  const next = counter();
  const runs: MeasuredRun[] = [];

  context.log("baseline: node:http + JSON.parse + one better-sqlite3 insert");
  const baseline = await startBaseline(context.dir);
  let afterNew: RowCounts;
  let afterRepeats: RowCounts;
  let afterSameWrites: RowCounts;
  let sameWrites: Awaited<ReturnType<typeof startSameWritesFloor>> | undefined;
  let velvet: Awaited<ReturnType<typeof startVelvet>> | undefined;
  const baselineSource = baselineNewCustomers(run, next);
  // Answered as Velvet answers, so checked as Velvet's answers are.
  const sameWritesSource = velvetNewCustomers(run, next);
  const fresh = velvetNewCustomers(run, next);
  try {
    context.log("same-writes floor: node:http + JSON.parse + a new customer's rows, raw SQLite");
    sameWrites = await startSameWritesFloor(context.dir);
    context.log("velvet serve (SQLite, worker off)");
    velvet = await startVelvet({ dir: context.dir, env: { WORKER_ENABLED: "false" } });
    const headers = { authorization: `Bearer ${velvet.apiKey}` };
    const pid = velvet.child.process.pid;
    for (let round = 1; round <= ROUNDS; round++) {
      context.log(`round ${round} of ${ROUNDS}`);
      const floorRun = await measure(
        context,
        "baseline-new",
        baseline.url,
        {},
        baseline.child.process.pid,
        baselineSource,
      );
      runs.push({ ...floorRun, round });
      const sameWritesRun = await measure(
        context,
        "same-writes-new",
        sameWrites.url,
        {},
        sameWrites.child.process.pid,
        sameWritesSource,
      );
      runs.push({ ...sameWritesRun, round });
      const velvetRun = await measure(context, "velvet-new", velvet.url, headers, pid, fresh);
      runs.push({ ...velvetRun, round });
    }
    afterNew = await settledCounts(velvet.databaseFile);
    afterSameWrites = await settledCounts(sameWrites.databaseFile);
    runs.push(
      await measure(
        context,
        "velvet-repeat",
        velvet.url,
        headers,
        pid,
        velvetRepeats(run, fresh.answers),
      ),
    );
    afterRepeats = await settledCounts(velvet.databaseFile);
  } finally {
    await velvet?.stop();
    await sameWrites?.stop();
    await baseline.stop();
  }
  const logBytes = fs.statSync(velvet.child.logFile).size;

  const ratio = medianRatio(runs, "velvet-new", "baseline-new");
  const sameWritesRatio = medianRatio(runs, "velvet-new", "same-writes-new");
  const [floorTarget, ...velvetTargets] = evaluate(
    runs,
    ratio,
    fresh.answers.size,
    afterNew,
    afterRepeats,
  );
  // The throughput targets first, as in the table's summary line.
  const targets = [
    floorTarget as Target,
    sameWritesTarget(runs, sameWritesRatio),
    ...velvetTargets,
    sameWritesRows(afterSameWrites, sameWritesSource.answers.size),
  ];
  return {
    table: ordersTable(runs, ratio, sameWritesRatio),
    targets,
    raw: {
      runs,
      velvetNewVsBaseline: ratio,
      velvetNewVsSameWrites: sameWritesRatio,
      rows: { afterNew, afterRepeats, sameWritesFloor: afterSameWrites },
      answeredNewCustomers: fresh.answers.size,
      answeredSameWritesFloor: sameWritesSource.answers.size,
      velvetLogBytes: logBytes,
    },
  };
}

export async function measure(
  context: PhaseContext,
  name: string,
  url: string,
  headers: Record<string, string>,
  serverPid: number | undefined,
  source: RequestSource,
): Promise<MeasuredRun> {
  const { connections, durationSec, warmupSec } = context.settings;
  const spec = { url, path: PATH, headers, connections, source };
  if (warmupSec > 0) {
    context.log(`  ${name}: warm-up ${warmupSec} s`);
    await runLoad({ ...spec, durationSec: warmupSec });
  }
  context.log(`  ${name}: ${durationSec} s, ${connections} connections`);
  const { value, cpu } = await measureCpu(serverPid, () => runLoad({ ...spec, durationSec }));
  context.log(
    `  ${name}: ${value.requestsPerSec.toFixed(0)} req/s, p50 ${value.p50Ms.toFixed(2)} ms, p99 ${value.p99Ms.toFixed(2)} ms, non-2xx ${value.non2xx}, wrong answers ${value.mismatches}`,
  );
  return { name, ...value, cpu };
}

/** Counts rows once in-flight requests of a stopped load run have been served. */
async function settledCounts(file: string): Promise<RowCounts> {
  await new Promise((r) => setTimeout(r, 500));
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const count = (table: string, where = "") =>
      (db.prepare(`select count(*) as n from ${table} ${where}`).get() as { n: number }).n;
    return {
      customers: count("customers"),
      orders: count("orders"),
      usage_charges: count("usage_charges"),
      // Periodic tasks (retention) keep one row each: not an enrichment job.
      jobs: count("jobs", "where job_key is null or job_key not like 'periodic:%'"),
    };
  } finally {
    db.close();
  }
}

function sameWritesTarget(runs: MeasuredRun[], ratio: number): Target {
  const fresh = runs.filter((r) => r.name === "velvet-new");
  const floors = runs.filter((r) => r.name === "same-writes-new");
  return {
    name: `new-customer req/s >= ${REQUIRED_SAME_WRITES_RATIO} of the same-writes floor`,
    pass: ratio >= REQUIRED_SAME_WRITES_RATIO,
    detail: `median of ${fresh.length} round(s): ${ratio.toFixed(2)} (${fresh.map((r) => r.requestsPerSec.toFixed(0)).join(" / ")} vs ${floors.map((r) => r.requestsPerSec.toFixed(0)).join(" / ")} req/s)`,
  };
}

/** The same-writes floor made what it stands for: a new customer's rows for every answer. */
function sameWritesRows(rows: RowCounts, answered: number): Target {
  const perCustomer =
    rows.orders === rows.customers &&
    rows.usage_charges === rows.customers &&
    rows.jobs === rows.customers;
  return {
    name: "same-writes floor: one customer, order, charge and job per request",
    pass: perCustomer && rows.customers >= answered,
    detail: `${JSON.stringify(rows)} (answered ${answered})`,
  };
}

function evaluate(
  runs: MeasuredRun[],
  ratio: number,
  answered: number,
  afterNew: RowCounts,
  afterRepeats: RowCounts,
): Target[] {
  const fresh = runs.filter((r) => r.name === "velvet-new");
  const worstP99 = Math.max(...fresh.map((r) => r.p99Ms));
  const floors = runs.filter((r) => r.name === "baseline-new");
  const clean = runs.every(
    (r) => r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.mismatches === 0,
  );
  const perCustomer =
    afterNew.orders === afterNew.customers &&
    afterNew.usage_charges === afterNew.customers &&
    afterNew.jobs === afterNew.customers;
  const repeatsWroteNothing = JSON.stringify(afterNew) === JSON.stringify(afterRepeats);
  return [
    {
      name: `new-customer req/s >= ${REQUIRED_RATIO} of the floor`,
      pass: ratio >= REQUIRED_RATIO,
      detail: `median of ${fresh.length} round(s): ${ratio.toFixed(2)} (${fresh.map((r) => r.requestsPerSec.toFixed(0)).join(" / ")} vs ${floors.map((r) => r.requestsPerSec.toFixed(0)).join(" / ")} req/s)`,
    },
    {
      name: `new-customer p99 <= ${MAX_P99_MS} ms`,
      pass: worstP99 <= MAX_P99_MS,
      detail: `worst round: ${worstP99.toFixed(2)} ms`,
    },
    {
      name: "every answer 2xx and correct (no errors, timeouts, wrong bodies)",
      pass: clean,
      detail: runs
        .map(
          (r) =>
            `${r.name}: non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}, wrong ${r.mismatches}`,
        )
        .join("; "),
    },
    {
      name: "one customer, order, charge and job per new customer; repeats write nothing",
      pass: perCustomer && repeatsWroteNothing && afterNew.customers >= answered,
      detail: `after new: ${JSON.stringify(afterNew)} (answered ${answered}); after repeats: ${JSON.stringify(afterRepeats)}`,
    },
  ];
}
