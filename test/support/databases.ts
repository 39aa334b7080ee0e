/**
 * The engines every database test runs on, each giving a fresh, empty database per call:
 * SQLite in a temporary file, PostgreSQL as a new database on the server named by
 * TEST_DATABASE_URL (default: the local server). When PostgreSQL cannot be reached its leg is
 * skipped with a loud warning, except under CI=true, where that is a failure.
 *
 *   for (const engine of ENGINES) describe.skipIf(!engine.available)(engine.name, () => { … })
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseTarget } from "../../src/config.js";

export interface TestDatabase {
  target: DatabaseTarget;
  /** What DATABASE_URL would say for this database (for spawned `velvet` processes). */
  url: string;
  /** The other settings a spawned `velvet` needs for it (pgbouncer.ts: the pooler's mode). */
  env?: Record<string, string>;
  drop(): Promise<void>;
}

export interface Engine {
  /** `pgbouncer`: PostgreSQL through a transaction-mode PgBouncer (pgbouncer.ts). */
  name: "sqlite" | "postgres" | "pgbouncer";
  /** The SQL engine behind it, for tests that differ by engine. */
  dialect: "sqlite" | "postgres";
  available: boolean;
  create(): Promise<TestDatabase>;
}

export const PG_BASE =
  process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: PG_BASE, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

const pgAvailable = await postgresReachable();
if (!pgAvailable) {
  const message = `PostgreSQL is not reachable at ${PG_BASE}: the PostgreSQL leg of the tests cannot run.`;
  if (process.env.CI === "true") throw new Error(`${message} Under CI=true this is a failure.`);
  process.stderr.write(
    `\n${"!".repeat(80)}\n!! WARNING: ${message}\n!! Skipping it. Set TEST_DATABASE_URL or start PostgreSQL.\n${"!".repeat(80)}\n\n`,
  );
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export const sqliteEngine: Engine = {
  name: "sqlite",
  dialect: "sqlite",
  available: true,
  async create() {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-test-"));
    const file = path.join(dir, "velvet.db");
    return {
      target: { kind: "sqlite", file },
      url: file,
      drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
    };
  },
};

/** A new, empty database on the test server, and how to drop it (with its connections). */
export async function createPgDatabase(): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `velvet_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  return {
    name,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      try {
        await c.query(`drop database if exists ${name} with (force)`);
      } finally {
        await c.end();
      }
    },
  };
}

export const postgresEngine: Engine = {
  name: "postgres",
  dialect: "postgres",
  available: pgAvailable,
  async create() {
    const { name, drop } = await createPgDatabase();
    const url = withDatabase(PG_BASE, name);
    return { target: { kind: "postgres", url, poolMax: 10 }, url, drop };
  },
};

export const ENGINES: Engine[] = [sqliteEngine, postgresEngine];
