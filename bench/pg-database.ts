/**
 * The PostgreSQL phases' database: a fresh database on BENCH_PG_URL's server made for a phase
 * and dropped after it (orders-pg, webhooks), the backends serving it (whose CPU a run counts)
 * and its rows once a run has settled.
 */
import pg from "pg";
import { runTag } from "./order-bodies.js";
import type { RowCounts } from "./orders.js";

const PG_URL = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** A fresh database on BENCH_PG_URL's server, and the way to drop it. */
export async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `velvet_bench_${runTag()}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export async function settledCounts(url: string): Promise<RowCounts> {
  await new Promise((r) => setTimeout(r, 500));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<Record<keyof RowCounts, string>>(`select
      (select count(*) from customers) as customers,
      (select count(*) from orders) as orders,
      (select count(*) from usage_charges) as usage_charges,
      (select count(*) from jobs where job_key is null or job_key not like 'periodic:%') as jobs`);
    const row = rows[0] as Record<keyof RowCounts, string>;
    return {
      customers: Number(row.customers),
      orders: Number(row.orders),
      usage_charges: Number(row.usage_charges),
      jobs: Number(row.jobs),
    };
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL's CPU for this run: the backends serving this phase's database (the pools are
 * full after the warm-up). Other users of the same server (other test runs on a shared machine)
 * are not counted here but under "other"; WAL writing is done mostly by the committing backends.
 */
export async function backendPids(url: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()",
    );
    return rows.map((r) => r.pid);
  } finally {
    await client.end();
  }
}
