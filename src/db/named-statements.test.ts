/**
 * PostgreSQL only (SQLite has no named statements): a registered SQL text runs as a named
 * statement, prepared once on the connection that ran it; any other text stays unnamed.
 */
import { CompiledQuery, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresEngine, type TestDatabase } from "../../test/support/databases.js";
import { type Db, openDatabase } from "./connect.js";
import { nameStatement } from "./named-statements.js";

describe.skipIf(!postgresEngine.available)("named statements on PostgreSQL", () => {
  let database: TestDatabase;
  let db: Db;

  beforeAll(async () => {
    database = await postgresEngine.createMigrated();
    const target = database.target;
    if (target.kind !== "postgres") throw new Error("expected a PostgreSQL database");
    // One connection, so every query below runs on the same one.
    db = openDatabase({ ...target, poolMax: 1 });
  });

  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });

  const prepared = async () =>
    (
      await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        db.kysely,
      )
    ).rows.map((r) => r.statement);

  it("prepares a registered text once and runs it with fresh values", async () => {
    const text = "select $1::int + 1 as n /* named-statements.test */";
    nameStatement(text);
    const run = async (v: number) =>
      (await db.kysely.executeQuery<{ n: number }>(CompiledQuery.raw(text, [v]))).rows[0]?.n;
    expect(await run(1)).toBe(2);
    expect(await run(41)).toBe(42);
    expect((await prepared()).filter((s) => s === text)).toHaveLength(1);
  });

  it("leaves a text that was not registered unnamed", async () => {
    const text = "select $1::int * 2 as n /* not registered */";
    const { rows } = await db.kysely.executeQuery<{ n: number }>(CompiledQuery.raw(text, [21]));
    expect(rows[0]?.n).toBe(42);
    expect(await prepared()).not.toContain(text);
  });
});
