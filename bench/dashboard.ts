/**
 * Dashboard render times (target: no page slower than 200 ms with 10,000 customers): a store
 * seeded with 10,000 customers, their orders, charges, enrichments and alerts, served by the
 * real app on loopback; every page is requested `samples` times in a row by a signed-in user
 * and timed from request to last byte. SQLite always; PostgreSQL too when reachable
 * (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local server).
 *
 * The server runs in this process (buildDeps + startServer, the same app `velvet serve` runs,
 * worker off): requests are sequential, so the client's share of each timing is small and
 * the figure is an upper bound on the server's render time.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import { sql } from "kysely";
import pg from "pg";
import { pino } from "pino";
import { type Config, type DatabaseTarget, loadConfig } from "../src/config.js";
import { createAccount } from "../src/features/accounts/create-account.js";
import { hashPassword } from "../src/features/accounts/password.js";
import { startServer } from "../src/http/server.js";
import { buildDeps, closeDeps } from "../src/main.js";
import { HttpBrowser } from "../test/browser/http-browser.js";
import { seedStore } from "../test/browser/seed-store.js";
import type { Phase, PhaseReport } from "./phase.js";

export const PAGE_TARGET_MS = 200;
const PASSWORD = "bench password 1";

export interface DashboardBenchOptions {
  /** A scratch directory for the SQLite file. */
  dir: string;
  customers?: number;
  samples?: number;
  /** A PostgreSQL server to create a scratch database on; null skips PostgreSQL. */
  postgresUrl?: string | null;
  log?: (message: string) => void;
}

export interface PageTiming {
  engine: "sqlite" | "postgres";
  path: string;
  status: number;
  bytes: number;
  medianMs: number;
  p95Ms: number;
  maxMs: number;
}

export interface DashboardBenchResults {
  customers: number;
  samples: number;
  targetMs: number;
  seedMs: Record<string, number>;
  pages: PageTiming[];
  slowest: PageTiming | null;
  pass: boolean;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function withScratchPostgres<T>(
  url: string,
  fn: (target: DatabaseTarget) => Promise<T>,
): Promise<T> {
  const name = `velvet_bench_${randomBytes(5).toString("hex")}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  try {
    return await fn({ kind: "postgres", url: u.toString(), poolMax: 10 });
  } finally {
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
  }
}

async function reachable(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    return true;
  } catch {
    return false;
  } finally {
    await c.end().catch(() => {});
  }
}

async function benchEngine(
  engine: "sqlite" | "postgres",
  target: DatabaseTarget,
  o: Required<Omit<DashboardBenchOptions, "postgresUrl" | "dir">>,
): Promise<{ pages: PageTiming[]; seedMs: number }> {
  const config: Config = {
    ...loadConfig({ LOG_LEVEL: "silent", WORKER_ENABLED: "false" }),
    database: target,
  };
  const deps = await buildDeps({ config, log: pino({ level: "silent" }) });
  const server = await startServer(deps, { port: 0, host: "127.0.0.1" });
  try {
    const now = Date.now();
    const email = `bench-${randomBytes(4).toString("hex")}@example.com`;
    const account = await createAccount(
      deps.db.kysely,
      { name: "Bench Store", ownerEmail: email, passwordHash: await hashPassword(PASSWORD) },
      now,
    );
    const seedStart = performance.now();
    const { vipIds } = await seedStore(deps.db.kysely, {
      accountId: account.accountId,
      storeId: account.storeId,
      customers: o.customers,
      days: 120,
      now,
    });
    // Fresh planner statistics, as autovacuum would have them on a live database.
    if (engine === "postgres") await sql`analyze`.execute(deps.db.kysely);
    const seedMs = Math.round(performance.now() - seedStart);
    o.log(`${engine}: seeded ${o.customers} customers (${vipIds.length} VIPs) in ${seedMs} ms`);

    const browser = new HttpBrowser(server.url);
    const login = await browser.submit("/login", "/login", { email, password: PASSWORD });
    if (login.status !== 303) throw new Error(`bench login answered ${login.status}`);
    const paths = [
      "/",
      "/?period=90",
      "/customers",
      "/customers?sort=score",
      "/customers?vip=1&sort=score",
      "/customers?q=novak",
      "/customers?status=failed",
      `/customers?page=${Math.max(1, Math.floor(o.customers / 50) - 1)}`,
      `/customers/${vipIds[0]}`,
      "/alerts",
      "/alerts?page=10",
      "/settings/integrations",
      "/settings/alerts",
      "/settings/billing",
    ];
    const pages: PageTiming[] = [];
    for (const p of paths) {
      const times: number[] = [];
      let status = 0;
      let bytes = 0;
      for (let i = 0; i < o.samples + 3; i++) {
        const started = performance.now();
        const res = await browser.get(p);
        const body = await res.arrayBuffer();
        const ms = performance.now() - started;
        status = res.status;
        bytes = body.byteLength;
        if (i >= 3) times.push(ms); // the first three warm caches and JIT
      }
      times.sort((a, b) => a - b);
      const round = (n: number) => Math.round(n * 10) / 10;
      pages.push({
        engine,
        path: p,
        status,
        bytes,
        medianMs: round(percentile(times, 50)),
        p95Ms: round(percentile(times, 95)),
        maxMs: round(times[times.length - 1] ?? 0),
      });
    }
    return { pages, seedMs };
  } finally {
    await server.close();
    await closeDeps(deps);
  }
}

export async function runDashboardBench(
  options: DashboardBenchOptions,
): Promise<DashboardBenchResults> {
  const o = {
    customers: options.customers ?? 10_000,
    samples: options.samples ?? 20,
    log: options.log ?? (() => {}),
  };
  const results: DashboardBenchResults = {
    customers: o.customers,
    samples: o.samples,
    targetMs: PAGE_TARGET_MS,
    seedMs: {},
    pages: [],
    slowest: null,
    pass: false,
  };
  const sqlite = await benchEngine(
    "sqlite",
    { kind: "sqlite", file: path.join(options.dir, "dashboard-bench.db") },
    o,
  );
  results.seedMs.sqlite = sqlite.seedMs;
  results.pages.push(...sqlite.pages);
  const pgUrl = options.postgresUrl === undefined ? defaultPostgresUrl() : options.postgresUrl;
  if (pgUrl !== null && (await reachable(pgUrl))) {
    const postgres = await withScratchPostgres(pgUrl, (target) =>
      benchEngine("postgres", target, o),
    );
    results.seedMs.postgres = postgres.seedMs;
    results.pages.push(...postgres.pages);
  } else {
    o.log("PostgreSQL not reachable: dashboard pages measured on SQLite only");
  }
  results.slowest = results.pages.reduce<PageTiming | null>(
    (w, p) => (w === null || p.p95Ms > w.p95Ms ? p : w),
    null,
  );
  results.pass = results.pages.every((p) => p.status === 200 && p.p95Ms < PAGE_TARGET_MS);
  return results;
}

function defaultPostgresUrl(): string {
  return (
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    "postgres://postgres@127.0.0.1:5432/postgres"
  );
}

export function dashboardTable(r: DashboardBenchResults): string {
  const lines = [
    `| engine | page | status | median ms | p95 ms | max ms | KiB |`,
    `|---|---|---|---:|---:|---:|---:|`,
    ...r.pages.map(
      (p) =>
        `| ${p.engine} | \`${p.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, "<vip id>")}\` | ${p.status} | ${p.medianMs} | ${p.p95Ms} | ${p.maxMs} | ${(p.bytes / 1024).toFixed(1)} |`,
    ),
  ];
  return lines.join("\n");
}

/** The phase for bench/run.ts: `PHASES = [ordersPhase, dashboardPhase]`. */
export const dashboardPhase: Phase = {
  name: "dashboard",
  title: "Dashboard pages with 10,000 customers",
  budgetSec: () => 600,
  run: async (context): Promise<PhaseReport> => {
    const results = await runDashboardBench({ dir: context.dir, log: context.log });
    const slow = results.pages.filter((p) => p.p95Ms >= PAGE_TARGET_MS || p.status !== 200);
    return {
      table: dashboardTable(results),
      targets: [
        {
          name: `every dashboard page p95 < ${PAGE_TARGET_MS} ms with ${results.customers} customers`,
          pass: results.pass,
          detail:
            slow.length === 0
              ? `slowest: ${results.slowest?.engine} ${results.slowest?.path} p95 ${results.slowest?.p95Ms} ms`
              : `too slow: ${slow.map((p) => `${p.engine} ${p.path} p95 ${p.p95Ms} ms (status ${p.status})`).join("; ")}`,
        },
      ],
      raw: results,
    };
  },
};
