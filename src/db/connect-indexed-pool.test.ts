/**
 * PostgreSQL only (SQLite has no `indexed` pool): each connection of the `indexed` pool drops
 * its cached plans each time its uses double, then every INDEXED_REPLAN_EVERY uses, so a named
 * statement planned while the tables were empty is planned again with the tables as they are
 * by then (connect.ts).
 *
 * Planning is observed from SQL: the statement calls an IMMUTABLE function without arguments,
 * which PostgreSQL evaluates once when it plans the statement (constant folding), not when it
 * runs it; the function draws the next value of a sequence. A statement without parameters
 * gets one generic plan, kept until the plan cache is reset, so the number each row carries
 * is the number of the planning that served it.
 */
import { CompiledQuery, sql } from "kysely";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { postgresEngine, type TestDatabase } from "../../test/support/databases.js";
import {
  type Db,
  INDEXED_POOL_MAX,
  INDEXED_REPLAN_EVERY,
  openDatabase,
  replanDue,
} from "./connect.js";
import { nameStatement } from "./named-statements.js";

const STATEMENT = "select planning() as planning, pg_backend_pid() as pid /* indexed re-plan */";

interface Use {
  planning: number;
  pid: number;
}

describe.skipIf(!postgresEngine.available)("the indexed pool on PostgreSQL", () => {
  let database: TestDatabase;
  // Opened anew by each test: its connections start with no uses.
  let db: Db;

  beforeAll(async () => {
    database = await postgresEngine.create();
    db = openTestDatabase();
    await sql`create sequence plannings`.execute(db.kysely);
    await sql`create function planning() returns int language sql immutable
      as $$ select nextval('plannings')::int $$`.execute(db.kysely);
    await db.close();
    nameStatement(STATEMENT);
  });

  beforeEach(() => {
    db = openTestDatabase();
  });

  afterEach(async () => {
    await db.close();
  });

  afterAll(async () => {
    await database?.drop();
  });

  const openTestDatabase = (): Db => {
    if (database.target.kind !== "postgres") throw new Error("expected a PostgreSQL database");
    return openDatabase(database.target);
  };

  const use = async (): Promise<Use> => {
    const { rows } = await db.indexed.executeQuery<Use>(CompiledQuery.raw(STATEMENT));
    const row = rows[0];
    if (row === undefined) throw new Error("no row");
    return row;
  };

  /** For each connection, the uses (1-based, in order) whose plan was not the previous use's. */
  const replannedAt = (uses: readonly Use[]): Map<number, number[]> => {
    const byPid = new Map<number, Use[]>();
    for (const u of uses) byPid.set(u.pid, [...(byPid.get(u.pid) ?? []), u]);
    return new Map(
      [...byPid].map(([pid, list]) => [
        pid,
        list.flatMap((u, i) => (i > 0 && u.planning !== list[i - 1]?.planning ? [i + 1] : [])),
      ]),
    );
  };

  it("plans a named statement again as a connection's uses double, then every INDEXED_REPLAN_EVERY-th use", async () => {
    const uses: Use[] = [];
    // One after another: the pool hands out the same idle connection every time.
    for (let n = 0; n < 2 * INDEXED_REPLAN_EVERY + 1; n++) uses.push(await use());
    expect(new Set(uses.map((u) => u.pid)).size).toBe(1);
    expect(INDEXED_REPLAN_EVERY).toBe(200);
    expect([...replannedAt(uses).values()]).toEqual([[2, 4, 8, 16, 32, 64, 128, 200, 400]]);
  });

  it("counts each connection's uses on its own", async () => {
    // In the order they were answered: on one connection, the order they ran in.
    const uses: Use[] = [];
    const worker = async () => {
      for (let n = 0; n < INDEXED_REPLAN_EVERY + 50; n++) uses.push(await use());
    };
    await Promise.all(Array.from({ length: INDEXED_POOL_MAX }, worker));
    const replanned = replannedAt(uses);
    expect(replanned.size).toBe(INDEXED_POOL_MAX);
    for (const [pid, at] of replanned) {
      const count = uses.filter((u) => u.pid === pid).length;
      expect(at).toEqual(Array.from({ length: count }, (_, i) => i + 1).filter(replanDue));
    }
  });
});
