/**
 * The engines every database test runs on, each giving a fresh database per call: SQLite in a
 * temporary file, PostgreSQL as a new database on the server named by TEST_DATABASE_URL
 * (default: the local server). When PostgreSQL cannot be reached its leg is skipped with a loud
 * warning, except under CI=true, where that is a failure.
 *
 * `create()` gives an empty database (for tests of migrating and loading reference data);
 * `createMigrated()` one already migrated and holding the reference data, copied from the run's
 * template (template-databases.ts: the SQLite file copied, PostgreSQL's `CREATE DATABASE …
 * TEMPLATE`), which is what every other test starts from.
 *
 *   for (const engine of ENGINES) describe.skipIf(!engine.available)(engine.name, () => { … })
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { DatabaseTarget } from "../../src/config.js";
import { migratedTemplates, prepareTestDatabase } from "./template-databases.js";

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
  /** A new, empty database. */
  create(): Promise<TestDatabase>;
  /** A new database, migrated and holding the reference data (`prepareDatabase`'s result). */
  createMigrated(): Promise<TestDatabase>;
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

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A temporary SQLite file, empty or a copy of `template`. */
function sqliteDatabase(template: string | null): TestDatabase {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-test-"));
  const file = path.join(dir, "velvet.db");
  if (template !== null) fs.copyFileSync(template, file);
  return {
    target: { kind: "sqlite", file },
    url: file,
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export const sqliteEngine: Engine = {
  name: "sqlite",
  dialect: "sqlite",
  available: true,
  create: async () => sqliteDatabase(null),
  createMigrated: async () => {
    const templates = migratedTemplates();
    return templates === null
      ? migratedInPlace(sqliteDatabase(null))
      : sqliteDatabase(templates.sqliteFile);
  },
};

/**
 * A new database on the test server, empty or a copy of the `template` database, and how to
 * drop it (with its connections).
 */
export async function createPgDatabase(
  options: { template?: string; prefix?: string } = {},
): Promise<{ name: string; drop(): Promise<void> }> {
  const { template, prefix = "velvet_test" } = options;
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  try {
    await admin.query(
      template === undefined
        ? `create database ${name}`
        : `create database ${name} template ${template}`,
    );
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

async function postgresDatabase(template?: string): Promise<TestDatabase> {
  const { name, drop } = await createPgDatabase({ template });
  const url = withDatabase(PG_BASE, name);
  return { target: { kind: "postgres", url, poolMax: 10 }, url, drop };
}

export const postgresEngine: Engine = {
  name: "postgres",
  dialect: "postgres",
  available: pgAvailable,
  create: () => postgresDatabase(),
  createMigrated: async () => {
    const template = migratedTemplates()?.postgresDatabase ?? null;
    return template === null
      ? migratedInPlace(await postgresDatabase())
      : postgresDatabase(template);
  },
};

/** Outside a vitest run (no templates): the database prepared as `velvet migrate` would. */
async function migratedInPlace(database: TestDatabase): Promise<TestDatabase> {
  await prepareTestDatabase(database.target);
  return database;
}

export const ENGINES: Engine[] = [sqliteEngine, postgresEngine];
