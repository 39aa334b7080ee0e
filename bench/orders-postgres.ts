/**
 * Order intake on PostgreSQL: POST /api/v1/orders on `velvet serve` against a bare
 * node:http + `pg` pool of 10 + one-INSERT floor (bench/pg-baseline-server.ts), each in its own
 * process, on one fresh PostgreSQL database made for the phase (BENCH_PG_URL names the server;
 * default the local one). Every request is a new customer with an order; worker off.
 *
 * Rounds (BENCH_PG_ROUNDS, default 2) alternate, so the shared machine's drift falls on all
 * alike: floor, one Velvet node, two Velvet nodes on the same database (the connections split
 * between them). Then one run of repeats on the first node (each must get its first answer back
 * byte for byte) and the row counts: one customer, order, charge and job per new customer.
 * Every run records the CPU of each server, of PostgreSQL (the backends serving this database),
 * of PgBouncer where it runs and of the load generator, which is where a 2-core machine's limit
 * shows.
 *
 * Then the same one-vs-two comparison with each node held to the same CPU budget
 * (BENCH_PG_NODE_CORES, default 0.25 of a core, by a cgroup quota: bench/cpu-cap.ts, over a
 * period of BENCH_PG_CAP_PERIOD_MS, default 100), standing in for nodes on machines of their
 * own; skipped where no cgroup cpu controller can be written. A quarter of a core each so that
 * what two nodes use (0.5), PostgreSQL (≈ 0.5 for their work) and the load generator (≈ 0.25)
 * fit in the machine's two cores with room to spare: at 0.35 each the sum met the two cores and
 * the ratio measured the machine running out as much as Velvet scaling (docs/performance.md).
 * The two-node held runs drive each of the two nodes like the one node (`connections` to each):
 * what two saturated nodes answer against one saturated node, capacity against capacity, which is
 * what adding a node is for. Each round also measures, direct, two held nodes sharing the one
 * node's connections (split: the same closed-loop load over two nodes, each then batching half as
 * much), reported beside it; BENCH_PG_HELD_LOAD=split judges that one instead of the per-node
 * direct run (docs/performance.md, Two nodes).
 * Each round of held runs goes direct, then through PgBouncer in transaction mode
 * (test/support/pgbouncer.ts, the tests' own launcher: two more nodes with
 * DATABASE_POOLER_MODE=transaction, held alike),
 * alternating, so the pooler's cost and the two-vs-one ratio through it are measured in the
 * same minutes as the direct ones; skipped, and said so, where PgBouncer is not installed.
 *
 * Last, one node at the pace of a quiet store (BENCH_PG_QUIET_RATE new customers a second,
 * default 100, sent on a schedule: bench/paced-load.ts): each submission then goes to PostgreSQL
 * alone, a statement of one, which is how most stores' orders arrive; reported, not judged.
 */

import {
  type PgBouncer,
  pgbouncerAvailable,
  pgbouncerVersion,
  startPgBouncer,
} from "../test/support/pgbouncer.js";
import { startPgBaseline } from "./baseline-process.js";
import { asLoadResult, combine } from "./combine-load.js";
import { measureCpuOfGroups } from "./cpu.js";
import { type CpuCap, capCpu } from "./cpu-cap.js";
import { type RequestSource, runLoad } from "./load.js";
import { runTag } from "./order-bodies.js";
import {
  baselineNewCustomers,
  counter,
  type ReturningSource,
  velvetNewCustomers,
  velvetRepeats,
  velvetReturning,
} from "./order-sources.js";
import { type PgRun, pgReport } from "./orders-postgres-report.js";
import { runPaced } from "./paced-load.js";
import { backendPids, createDatabase, settledCounts } from "./pg-database.js";
import type { Phase, PhaseContext, PhaseReport } from "./phase.js";
import { startVelvet, type VelvetServer } from "./velvet-process.js";

export type { PgRun } from "./orders-postgres-report.js";
// Where the phase's database used to be made; other phases may still import it from here.
export { createDatabase } from "./pg-database.js";

const PATH = "/api/v1/orders";
const ROUNDS = Math.max(1, Number(process.env.BENCH_PG_ROUNDS ?? 2));
const NODE_CORES = Number(process.env.BENCH_PG_NODE_CORES ?? 0.25);
const CAP_PERIOD_MS = Number(process.env.BENCH_PG_CAP_PERIOD_MS ?? 100);
/**
 * Which direct two-node held run is judged: each node driven with all the connections, as the one
 * node is (per-node, capacity against capacity), or a share of them (split). Both are measured.
 */
const HELD_LOAD = process.env.BENCH_PG_HELD_LOAD === "split" ? "split" : "per-node";
const QUIET_RATE = Math.max(1, Number(process.env.BENCH_PG_QUIET_RATE ?? 100));
const QUIET_CONNECTIONS = 10;
/** PgBouncer's server connections for the two pooled nodes: one node's own pool, not two. */
const PGBOUNCER_POOL_SIZE = 10;
/** What a node needs to run behind a transaction-mode pooler (docs/configuration.md). */
const POOLED_ENV = { DATABASE_POOLER_MODE: "transaction" };

export const ordersPostgresPhase: Phase = {
  name: "orders-pg",
  title: "Order intake on PostgreSQL: POST /api/v1/orders",
  budgetSec: (s) => (9 * ROUNDS + 2) * (s.warmupSec + s.durationSec) + 240,
  run: runPgPhase,
};

async function runPgPhase(context: PhaseContext): Promise<PhaseReport> {
  const database = await createDatabase();
  try {
    return await measureAll(context, database.url);
  } finally {
    await database.drop();
  }
}

type LoadTarget = { url: string; headers: Record<string, string> };

async function measureAll(context: PhaseContext, url: string): Promise<PhaseReport> {
  const run = runTag();
  const next = counter();
  const env = { WORKER_ENABLED: "false" };
  const floor = await startPgBaseline(context.dir, url);
  const nodes: VelvetServer[] = [];
  const pooledNodes: VelvetServer[] = [];
  let bouncer: PgBouncer | null = null;
  const runs: PgRun[] = [];
  const fresh = velvetNewCustomers(run, next);
  let returning: ReturningSource | null = null;
  try {
    const first = await startVelvet({ dir: context.dir, env, databaseUrl: url, name: "node-1" });
    nodes.push(first);
    nodes.push(
      await startVelvet({
        dir: context.dir,
        env,
        databaseUrl: url,
        account: first,
        name: "node-2",
      }),
    );
    const headers = { authorization: `Bearer ${first.apiKey}` };
    const targetsOf = (servers: VelvetServer[]): LoadTarget[] =>
      servers.map((n) => ({ url: n.url, headers }));
    const oneNode = targetsOf([first]);
    const bothNodes = targetsOf(nodes);
    const groups: Record<string, number[]> = {
      floor: pidOf(floor.child.process.pid),
      "node-1": pidOf(first.child.process.pid),
      "node-2": pidOf(nodes[1]?.child.process.pid),
    };
    const measure = async (
      name: PgRun["name"],
      round: number,
      targets: LoadTarget[],
      source: RequestSource,
      paced = false,
      perNode = false,
    ) => {
      const { connections, durationSec, warmupSec } = context.settings;
      const each = perNode ? connections : Math.max(1, Math.round(connections / targets.length));
      const load = (seconds: number) =>
        Promise.all(
          targets.map((t) =>
            runLoad({ ...t, path: PATH, connections: each, durationSec: seconds, source }),
          ),
        ).then(combine);
      // A quiet store: one node, requests on a schedule whatever the answers' pace.
      const paceOf = (seconds: number) =>
        runPaced({
          ...(targets[0] as LoadTarget),
          path: PATH,
          connections: QUIET_CONNECTIONS,
          ratePerSec: QUIET_RATE,
          warmupSec: 0,
          durationSec: seconds,
          source,
        }).then(asLoadResult);
      const drive = paced ? paceOf : load;
      if (warmupSec > 0) await drive(warmupSec);
      const backends = await backendPids(url);
      const { value, cpu } = await measureCpuOfGroups({ ...groups, postgres: backends }, () =>
        drive(durationSec),
      );
      const result: PgRun = {
        name,
        round,
        ...value,
        cpu: { ...cpu.groups, loader: cpu.loaderCores, other: cpu.otherCores },
      };
      context.log(
        `  round ${round} ${name}: ${value.requestsPerSec.toFixed(0)} req/s, p99 ${value.p99Ms.toFixed(2)} ms, non-2xx ${value.non2xx}, wrong ${value.mismatches}; cores ${Object.entries(
          result.cpu,
        )
          .map(([k, v]) => `${k} ${v === null ? "n/a" : v.toFixed(2)}`)
          .join(", ")}`,
      );
      runs.push(result);
    };

    for (let round = 1; round <= ROUNDS; round++) {
      await measure(
        "floor",
        round,
        [{ url: floor.url, headers: {} }],
        baselineNewCustomers(run, next),
      );
      await measure("velvet-1", round, oneNode, fresh);
      returning ??= velvetReturning(run, fresh.answers);
      await measure("velvet-returning", round, oneNode, returning);
      await measure("velvet-2", round, bothNodes, fresh);
    }

    // Two more nodes on the same database through PgBouncer, for the held runs.
    let pooledSkipped: string | null = null;
    bouncer = pgbouncerAvailable
      ? await startPgBouncer({ server: url, poolSize: PGBOUNCER_POOL_SIZE, maxClients: 500 })
      : null;
    if (bouncer === null) {
      pooledSkipped = "PgBouncer is not installed here (PGBOUNCER)";
    } else {
      context.log(
        `  ${pgbouncerVersion()}, transaction mode, ${PGBOUNCER_POOL_SIZE} server connections`,
      );
      for (const name of ["pooled-1", "pooled-2"]) {
        pooledNodes.push(
          await startVelvet({
            dir: context.dir,
            env: { ...env, ...POOLED_ENV },
            databaseUrl: bouncer.url(new URL(url).pathname.slice(1)),
            account: first,
            name,
          }),
        );
      }
      groups["pooled-1"] = pidOf(pooledNodes[0]?.child.process.pid);
      groups["pooled-2"] = pidOf(pooledNodes[1]?.child.process.pid);
      const pid = bouncer.pid();
      groups.pgbouncer = pid === null ? [] : [pid];
    }
    const capped = capNodes([...nodes, ...pooledNodes]);
    const cappedSkipped =
      capped === null ? "no cgroup cpu controller could be written on this machine" : null;
    if (capped !== null) {
      try {
        context.log(
          `  each node capped at ${NODE_CORES} of a core (quota period ${CAP_PERIOD_MS} ms), each driven like the one (and, direct, with the connections split between them)`,
        );
        for (let round = 1; round <= ROUNDS; round++) {
          await measure("velvet-1-capped", round, oneNode, fresh);
          await measure("velvet-2-capped", round, bothNodes, fresh, false, true);
          await measure("velvet-2-capped-split", round, bothNodes, fresh);
          if (pooledNodes.length === 0) continue;
          await measure("velvet-1-pgbouncer", round, targetsOf(pooledNodes.slice(0, 1)), fresh);
          await measure("velvet-2-pgbouncer", round, targetsOf(pooledNodes), fresh, false, true);
        }
      } finally {
        for (const cap of capped) cap.release();
      }
    } else {
      context.log(`  ${cappedSkipped}: the held runs are skipped`);
    }
    context.log(`  one node at ${QUIET_RATE} new customers a second`);
    await measure("velvet-quiet", 1, oneNode, fresh, true);
    const afterNew = await settledCounts(url);
    await measure("velvet-repeat", 1, oneNode, velvetRepeats(run, fresh.answers));
    const afterRepeats = await settledCounts(url);
    return pgReport({
      runs,
      rounds: ROUNDS,
      nodeCores: NODE_CORES,
      heldLoad: HELD_LOAD,
      cappedSkipped,
      pooledSkipped,
      answered: fresh.answers.size,
      returningAnswered: returning?.answered ?? 0,
      afterNew,
      afterRepeats,
    });
  } finally {
    await Promise.all([
      floor.stop(),
      ...nodes.map((n) => n.stop()),
      ...pooledNodes.map((n) => n.stop()),
    ]);
    await bouncer?.close();
  }
}

/** Each node held to NODE_CORES; null (nothing capped) when this machine does not allow it. */
function capNodes(nodes: VelvetServer[]): CpuCap[] | null {
  const caps: CpuCap[] = [];
  for (const [i, node] of nodes.entries()) {
    const pid = node.child.process.pid;
    const cap =
      pid === undefined
        ? null
        : capCpu(`velvet-bench-node-${i + 1}`, pid, NODE_CORES, CAP_PERIOD_MS);
    if (cap === null) {
      for (const c of caps) c.release();
      return null;
    }
    caps.push(cap);
  }
  return caps;
}

function pidOf(pid: number | undefined): number[] {
  return pid === undefined ? [] : [pid];
}
