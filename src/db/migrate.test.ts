/**
 * PostgreSQL's migrations run in one transaction under a transaction-scoped advisory lock
 * (migrate.ts, postgres-dialect.ts), directly and through PgBouncer in transaction mode, where a
 * session lock would be taken and released on different server connections: two runs at once
 * on a new database both succeed and apply each migration once; a failing migration keeps
 * nothing of its run and says which it was; neither leaves a lock behind.
 */
import { sql } from "kysely";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { PG_BASE, postgresEngine, type TestDatabase } from "../../test/support/databases.js";
import { pgbouncerEngine } from "../../test/support/pgbouncer.js";
import { type Db, openDatabase } from "./connect.js";
import { MIGRATIONS, MigrationError, migrateToLatest } from "./migrate.js";

const FAILING = "9999_test_failure";

for (const engine of [postgresEngine, pgbouncerEngine]) {
  describe.skipIf(!engine.available)(`migrations on ${engine.name}`, () => {
    let database: TestDatabase | undefined;
    const open: Db[] = [];

    afterEach(async () => {
      delete MIGRATIONS[FAILING];
      await Promise.all(open.splice(0).map((db) => db.close()));
      await database?.drop();
      database = undefined;
    });

    const openDb = (): Db => {
      if (database === undefined) throw new Error("no database");
      const db = openDatabase(database.target);
      open.push(db);
      return db;
    };

    /** Straight to PostgreSQL, past PgBouncer: what the server itself holds. */
    const onServer = async <T>(text: string): Promise<T[]> => {
      const u = new URL(PG_BASE);
      u.pathname = new URL(database?.url ?? "").pathname;
      const client = new pg.Client({ connectionString: u.toString() });
      await client.connect();
      try {
        return (await client.query(text)).rows as T[];
      } finally {
        await client.end();
      }
    };
    const advisoryLocks = async () =>
      (
        await onServer<{ n: number }>(`select count(*)::int as n from pg_locks l
          join pg_database d on d.oid = l.database
          where l.locktype = 'advisory' and d.datname = current_database()`)
      )[0]?.n;

    it("two runs at once on a new database: both succeed, each migration applied once", async () => {
      database = await engine.create();
      const [a, b] = await Promise.all([
        migrateToLatest(openDb().kysely),
        migrateToLatest(openDb().kysely),
      ]);
      // One run applied everything; the other waited for its lock, then found nothing to do.
      expect([a.applied.length, b.applied.length].sort((x, y) => x - y)).toEqual([
        0,
        Object.keys(MIGRATIONS).length,
      ]);
      const applied = await onServer<{ n: number }>(
        "select count(*)::int as n from kysely_migration",
      );
      expect(applied[0]?.n).toBe(Object.keys(MIGRATIONS).length);
      expect(await advisoryLocks()).toBe(0);
    });

    it("a failing migration: named, nothing of the run kept, no lock left, and the next run works", async () => {
      database = await engine.create();
      MIGRATIONS[FAILING] = {
        up: async (db) => {
          await sql`create table made_before_failing (id int)`.execute(db);
          await sql`select 1 / 0`.execute(db);
        },
      };
      const db = openDb();
      const failed = migrateToLatest(db.kysely);
      await expect(failed).rejects.toBeInstanceOf(MigrationError);
      await expect(failed).rejects.toThrow(
        new RegExp(`^Migration ${FAILING} failed: division by zero`),
      );
      const tables = await onServer<{ name: string }>(
        "select table_name as name from information_schema.tables where table_schema = 'public'",
      );
      expect(tables).toEqual([]);
      expect(await advisoryLocks()).toBe(0);
      delete MIGRATIONS[FAILING];
      expect((await migrateToLatest(db.kysely)).applied).toHaveLength(
        Object.keys(MIGRATIONS).length,
      );
    });
  });
}
