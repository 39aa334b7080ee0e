/**
 * Two connections of one process on one SQLite file, as `velvet serve` and its worker thread
 * have (thread-write-lock.ts): they take the write lock in turn without SQLITE_BUSY, the serving
 * side goes first, a worker's transaction yields as soon as the serving side waits, and a lock
 * held too long ends in DatabaseBusyError with nothing written. The two sides run on one thread
 * here; the lock is the same SharedArrayBuffer a worker thread receives.
 */
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sqliteEngine, type TestDatabase } from "../../test/support/databases.js";
import { type Db, openDatabase } from "./connect.js";
import { DatabaseBusyError } from "./errors.js";
import { ThreadWriteLock } from "./thread-write-lock.js";

interface TestSchema {
  items: { id: number; side: string };
}

let database: TestDatabase;
let serving: Db;
let worker: Db;
let s: Kysely<TestSchema>;
let w: Kysely<TestSchema>;

beforeEach(async () => {
  database = await sqliteEngine.create();
  if (database.target.kind !== "sqlite") throw new Error("expected SQLite");
  serving = openDatabase({ ...database.target, busyTimeoutMs: 1000 });
  const lock = serving.sqlite?.writeLock;
  if (!lock) throw new Error("expected a write lock on a SQLite file");
  worker = openDatabase(
    { ...database.target, busyTimeoutMs: 1000 },
    { sharedWriteLock: lock.buffer },
  );
  s = serving.kysely as unknown as Kysely<TestSchema>;
  w = worker.kysely as unknown as Kysely<TestSchema>;
  await sql`create table items (id integer primary key, side text not null)`.execute(s);
});

afterEach(async () => {
  await worker.close();
  await serving.close();
  await database.drop();
});

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise a transaction awaits to stay open, and the call that lets it go on. */
function gate(): { held: Promise<void>; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

describe("the write lock of a process's threads", () => {
  it("hands the lock over when the holder commits", async () => {
    const order: string[] = [];
    const { held, release } = gate();
    const workerTrx = w.transaction().execute(async (trx) => {
      await trx.insertInto("items").values({ id: 1, side: "worker" }).execute();
      await held;
      order.push("worker committed");
    });
    await later(20);
    const servingTrx = s.transaction().execute(async (trx) => {
      order.push("serving began");
      await trx.insertInto("items").values({ id: 2, side: "serving" }).execute();
    });
    await later(50);
    expect(order).toEqual([]);
    release();
    await Promise.all([workerTrx, servingTrx]);
    expect(order).toEqual(["worker committed", "serving began"]);
    expect(await s.selectFrom("items").select("side").orderBy("id").execute()).toEqual([
      { side: "worker" },
      { side: "serving" },
    ]);
  });

  it("serves the serving side first, though a worker began waiting before it", async () => {
    const lock = serving.sqlite?.writeLock as ThreadWriteLock;
    // A third side holds the lock; a worker transaction, then a serving one, wait for it.
    const holder = new ThreadWriteLock({ urgent: false }, lock.buffer);
    await holder.acquire(100);
    const order: string[] = [];
    const workerTrx = w.transaction().execute(async (trx) => {
      order.push("worker");
      await trx.insertInto("items").values({ id: 1, side: "worker" }).execute();
    });
    await later(10);
    const servingTrx = s.transaction().execute(async (trx) => {
      order.push("serving");
      await trx.insertInto("items").values({ id: 2, side: "serving" }).execute();
    });
    await later(10);
    holder.release();
    await Promise.all([workerTrx, servingTrx]);
    expect(order).toEqual(["serving", "worker"]);
  });

  it("commits a worker's transaction at once when the serving side waits, not at the end of its turn", async () => {
    // Two worker transactions in one turn would share a commit at the turn's end; with the
    // serving side waiting, the first commits as it ends and the serving side goes between.
    const order: string[] = [];
    const { held, release } = gate();
    const a = w.transaction().execute(async (trx) => {
      await trx.insertInto("items").values({ id: 1, side: "worker" }).execute();
      await held;
      order.push("worker a");
    });
    const b = w.transaction().execute(async (trx) => {
      order.push("worker b");
      await trx.insertInto("items").values({ id: 2, side: "worker" }).execute();
    });
    await later(10);
    const servingTrx = s.transaction().execute(async (trx) => {
      order.push("serving");
      await trx.insertInto("items").values({ id: 3, side: "serving" }).execute();
    });
    await later(10);
    release();
    await Promise.all([a, b, servingTrx]);
    expect(order).toEqual(["worker a", "serving", "worker b"]);
  });

  it("fails with DatabaseBusyError, writing nothing, when the other side holds the lock too long", async () => {
    const { held, release } = gate();
    const workerTrx = w.transaction().execute(async (trx) => {
      await trx.insertInto("items").values({ id: 1, side: "worker" }).execute();
      await held;
    });
    await later(10);
    const attempt = s.insertInto("items").values({ id: 2, side: "serving" }).execute();
    await expect(attempt).rejects.toBeInstanceOf(DatabaseBusyError);
    release();
    await workerTrx;
    expect(await s.selectFrom("items").select("id").execute()).toEqual([{ id: 1 }]);
  });

  it("frees the lock of a side that ended while holding it", async () => {
    const lock = serving.sqlite?.writeLock as ThreadWriteLock;
    const gone = new ThreadWriteLock({ urgent: false }, lock.buffer);
    await gone.acquire(100);
    await expect(s.insertInto("items").values({ id: 1, side: "x" }).execute()).rejects.toThrow(
      DatabaseBusyError,
    );
    lock.releaseFor(gone.id);
    await s.insertInto("items").values({ id: 1, side: "serving" }).execute();
    expect(await s.selectFrom("items").select("id").execute()).toEqual([{ id: 1 }]);
  });
});
