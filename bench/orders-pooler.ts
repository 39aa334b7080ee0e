/**
 * Order intake on PostgreSQL through a connection pooler: what PgBouncer in transaction mode
 * costs one `velvet serve` node, next to the same node straight on PostgreSQL. Three nodes on
 * one fresh database (BENCH_PG_URL's server), worker off, loaded one at a time with new
 * customers, in alternating rounds (BENCH_POOLER_ROUNDS, default 2) so the machine's drift falls
 * on all alike:
 *   - direct: the default (named statements, the intake's own planner settings);
 *   - direct-unnamed: DATABASE_POOLER_MODE=transaction straight on PostgreSQL, which separates
 *     what unnamed statements (planned at every run) cost from what the pooler's hop costs;
 *   - pgbouncer: DATABASE_POOLER_MODE=transaction through a PgBouncer in transaction mode
 *     (test/support/pgbouncer.ts; whatever version is installed, /usr/sbin/pgbouncer or
 *     PGBOUNCER).
 * Reported, not judged (besides every answer being right): the figures are for the docs.
 */
import { type PgBouncer, startPgBouncer } from "../test/support/pgbouncer.js";
import { measureCpuOfGroups } from "./cpu.js";
import { runLoad } from "./load.js";
import { medianRatio } from "./median-ratio.js";
import { runTag } from "./order-bodies.js";
import { counter, velvetNewCustomers } from "./order-sources.js";
import { backendPids, createDatabase } from "./pg-database.js";
import type { Phase, PhaseContext, PhaseReport } from "./phase.js";
import { startVelvet, type VelvetServer } from "./velvet-process.js";

const ROUNDS = Math.max(1, Number(process.env.BENCH_POOLER_ROUNDS ?? 2));
const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const VARIANTS = ["direct", "direct-unnamed", "pgbouncer"] as const;
type Variant = (typeof VARIANTS)[number];

interface PoolerRun {
  name: Variant;
  round: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  wrong: number;
  cpu: Record<string, number | null>;
}

export const ordersPoolerPhase: Phase = {
  name: "orders-pooler",
  title: "Order intake on PostgreSQL through PgBouncer (transaction mode) vs direct",
  budgetSec: (s) => 3 * ROUNDS * (s.warmupSec + s.durationSec) + 120,
  run: async (context) => {
    const database = await createDatabase();
    const bouncer = await startPgBouncer({ server: PG_URL });
    try {
      return await measureAll(context, database.url, bouncer);
    } finally {
      await bouncer.close();
      await database.drop();
    }
  },
};

async function measureAll(
  context: PhaseContext,
  url: string,
  bouncer: PgBouncer,
): Promise<PhaseReport> {
  const pooled = { WORKER_ENABLED: "false", DATABASE_POOLER_MODE: "transaction" };
  const nodes = new Map<Variant, VelvetServer>();
  const runs: PoolerRun[] = [];
  try {
    const direct = await startVelvet({
      dir: context.dir,
      env: { WORKER_ENABLED: "false" },
      databaseUrl: url,
      name: "direct",
    });
    nodes.set("direct", direct);
    nodes.set(
      "direct-unnamed",
      await startVelvet({
        dir: context.dir,
        env: pooled,
        databaseUrl: url,
        account: direct,
        name: "direct-unnamed",
      }),
    );
    const through = bouncer.url(new URL(url).pathname.slice(1));
    nodes.set(
      "pgbouncer",
      await startVelvet({
        dir: context.dir,
        env: pooled,
        databaseUrl: through,
        account: direct,
        name: "pgbouncer",
      }),
    );
    const headers = { authorization: `Bearer ${direct.apiKey}` };
    const source = velvetNewCustomers(runTag(), counter());
    const { connections, durationSec, warmupSec } = context.settings;
    for (let round = 1; round <= ROUNDS; round++) {
      for (const name of VARIANTS) {
        const node = nodes.get(name) as VelvetServer;
        const load = (seconds: number) =>
          runLoad({
            url: node.url,
            headers,
            path: "/api/v1/orders",
            connections,
            durationSec: seconds,
            source,
          });
        if (warmupSec > 0) await load(warmupSec);
        const groups = {
          node: pids(node.child.process.pid),
          postgres: await backendPids(url),
          pgbouncer: pids(bouncer.pid() ?? undefined),
        };
        const { value, cpu } = await measureCpuOfGroups(groups, () => load(durationSec));
        const run: PoolerRun = {
          name,
          round,
          requestsPerSec: value.requestsPerSec,
          p50Ms: value.p50Ms,
          p99Ms: value.p99Ms,
          wrong: value.non2xx + value.mismatches + value.errors + value.timeouts,
          cpu: { ...cpu.groups, loader: cpu.loaderCores, other: cpu.otherCores },
        };
        context.log(
          `  round ${round} ${name}: ${run.requestsPerSec.toFixed(0)} req/s, p50 ${run.p50Ms.toFixed(2)} ms, p99 ${run.p99Ms.toFixed(2)} ms, wrong ${run.wrong}; cores ${Object.entries(
            run.cpu,
          )
            .map(([k, v]) => `${k} ${v === null ? "n/a" : v.toFixed(2)}`)
            .join(", ")}`,
        );
        runs.push(run);
      }
    }
  } finally {
    await Promise.all([...nodes.values()].map((n) => n.stop()));
  }
  return report(runs);
}

function report(runs: PoolerRun[]): PhaseReport {
  const viaBouncer = medianRatio(runs, "pgbouncer", "direct");
  const unnamed = medianRatio(runs, "direct-unnamed", "direct");
  const cores = (r: PoolerRun, k: string) => {
    const v = r.cpu[k];
    return v === null || v === undefined ? "n/a" : v.toFixed(2);
  };
  const lines = [
    "| run | round | req/s | p50 ms | p99 ms | node cores | PostgreSQL cores | PgBouncer cores | other cores |",
    "|---|---|---|---|---|---|---|---|---|",
    ...runs.map(
      (r) =>
        `| ${r.name} | ${r.round} | ${r.requestsPerSec.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${cores(r, "node")} | ${cores(r, "postgres")} | ${r.name === "pgbouncer" ? cores(r, "pgbouncer") : "–"} | ${cores(r, "other")} |`,
    ),
    "",
    `Median of ${ROUNDS} round(s): through PgBouncer ${viaBouncer.toFixed(2)} × direct; unnamed statements without a pooler ${unnamed.toFixed(2)} × direct.`,
  ];
  return {
    table: lines.join("\n"),
    targets: [
      {
        name: "every answer 2xx and correct (no errors, timeouts, wrong bodies)",
        pass: runs.every((r) => r.wrong === 0),
        detail: runs.map((r) => `${r.name}#${r.round}: ${r.wrong}`).join("; "),
      },
      {
        name: "through PgBouncer vs direct (reported)",
        pass: true,
        detail: `${viaBouncer.toFixed(2)} × direct (unnamed, no pooler: ${unnamed.toFixed(2)} ×)`,
      },
    ],
    raw: { runs, viaBouncer, unnamed },
  };
}

function pids(pid: number | undefined): number[] {
  return pid === undefined ? [] : [pid];
}
