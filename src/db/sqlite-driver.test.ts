/**
 * The SQLite driver's promises (SQLite only: it is the SQLite driver): group commit keeps each
 * transaction all-or-nothing, a commit resolves only once the data is durable and visible to
 * other connections, reads outside a transaction see committed state only, and a write outside
 * a transaction commits on its own.
 */
import SQLite from "better-sqlite3";
import { type Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { sqliteEngine, type TestDatabase } from "../../test/support/databases.js";
import { holdWriteLock } from "../../test/support/hold-sqlite-lock.js";
import { type Db, openDatabase } from "./connect.js";
import { DatabaseBusyError } from "./errors.js";
import { transactSync } from "./transact-sync.js";

interface TestSchema {
  items: { id: number; label: string };
}

let database: TestDatabase;
let db: Db;
let k: Kysely<TestSchema>;
let file: string;

/** A separate connection, as another process would have: it sees committed data only. */
function committedLabels(): string[] {
  const other = new SQLite(file, { readonly: true });
  try {
    const rows = other.prepare("select label from items order by id").all() as { label: string }[];
    return rows.map((r) => r.label);
  } finally {
    other.close();
  }
}

function insert(trxOrDb: Kysely<TestSchema>, id: number, label = `item ${id}`) {
  return trxOrDb.insertInto("items").values({ id, label }).execute();
}

beforeEach(async () => {
  database = await sqliteEngine.create();
  if (database.target.kind !== "sqlite") throw new Error("expected SQLite");
  file = database.target.file;
  db = openDatabase(database.target);
  k = db.kysely as unknown as Kysely<TestSchema>;
  await sql`create table items (id integer primary key, label text not null check (label <> 'bad'))`.execute(
    k,
  );
});

afterEach(async () => {
  await db.close();
  await database.drop();
});

describe("SQLite driver", () => {
  it("commits many concurrent transactions, each visible elsewhere once its commit resolves", async () => {
    const seenAtCommit: boolean[] = [];
    await Promise.all(
      Array.from({ length: 60 }, async (_, i) => {
        await k.transaction().execute(async (trx) => {
          await insert(trx, i);
          await insert(trx, 1000 + i);
        });
        const labels = committedLabels();
        seenAtCommit.push(labels.includes(`item ${i}`) && labels.includes(`item ${1000 + i}`));
      }),
    );
    expect(seenAtCommit).toHaveLength(60);
    expect(seenAtCommit.every(Boolean)).toBe(true);
    expect(committedLabels()).toHaveLength(120);
  });

  it("rolls back a failing transaction alone, while those committing beside it succeed", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        k.transaction().execute(async (trx) => {
          await insert(trx, i);
          // The fifth transaction fails after its first write.
          if (i === 4) await insert(trx, 100 + i, "bad");
          else await insert(trx, 100 + i);
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i === 4 ? "rejected" : "fulfilled")),
    );
    const labels = committedLabels();
    expect(labels).toHaveLength(18);
    expect(labels).not.toContain("item 4");
  });

  it("reads outside a transaction see committed state, never a pending commit", async () => {
    const pending = k.transaction().execute((trx) => insert(trx, 1));
    // Runs before the pending commit: the reader must not see the uncommitted row.
    const before = await k.selectFrom("items").select("label").execute();
    await pending;
    const after = await k.selectFrom("items").select("label").execute();
    expect(before).toEqual([]);
    expect(after).toEqual([{ label: "item 1" }]);
  });

  it("commits pending transactions before a write outside a transaction, which commits alone", async () => {
    const pending = k.transaction().execute((trx) => insert(trx, 1));
    await insert(k, 2);
    expect(committedLabels()).toEqual(["item 1", "item 2"]);
    await pending;
    await expect(insert(k, 3, "bad")).rejects.toThrow(/CHECK constraint failed/);
    expect(committedLabels()).toEqual(["item 1", "item 2"]);
  });

  it("lets a transaction wait on I/O while others queue behind it, then commits them all", async () => {
    const slow = k.transaction().execute(async (trx) => {
      await insert(trx, 1);
      await new Promise((r) => setTimeout(r, 50));
      await insert(trx, 2);
    });
    const quick = Array.from({ length: 5 }, (_, i) =>
      k.transaction().execute((trx) => insert(trx, 10 + i)),
    );
    await Promise.all([slow, ...quick]);
    expect(committedLabels()).toHaveLength(7);
  });

  it("fails every member of a group whose COMMIT fails, and writes none of them", async () => {
    // A deferred constraint is checked at COMMIT, the one failure shared by a whole group.
    await sql`create table parents (id integer primary key)`.execute(k);
    await sql`create table children (id integer primary key, parent_id integer not null
      references parents (id) deferrable initially deferred)`.execute(k);
    const results = await Promise.allSettled([
      k.transaction().execute((trx) => insert(trx, 1)),
      k.transaction().execute(async (trx) => {
        await sql`insert into children (id, parent_id) values (1, 42)`.execute(trx);
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(committedLabels()).toEqual([]);
    // The driver recovers: the next transaction commits.
    await k.transaction().execute((trx) => insert(trx, 2));
    expect(committedLabels()).toEqual(["item 2"]);
  });

  it("runs nested savepoints of a controlled transaction", async () => {
    const trx = await k.startTransaction().execute();
    await insert(trx, 1);
    const inner = await trx.savepoint("inner").execute();
    await insert(inner, 2);
    await inner.rollbackToSavepoint("inner").execute();
    await trx.commit().execute();
    expect(committedLabels()).toEqual(["item 1"]);
  });

  it("fails the pending members at once when SQLite rolled the whole transaction back under one", async () => {
    const results = await Promise.allSettled([
      k.transaction().execute((trx) => insert(trx, 1)),
      k.transaction().execute(async (trx) => {
        await insert(trx, 2);
        // What SQLite does itself on a full disk or an I/O error: the whole transaction is gone.
        await sql`rollback`.execute(trx);
        throw new Error("the transaction is gone");
      }),
      // Starts in the same turn, after the loss: it must get a transaction of its own, not join
      // (and later be failed with) a group whose writes no longer exist.
      k.transaction().execute((trx) => insert(trx, 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected", "fulfilled"]);
    expect(committedLabels()).toEqual(["item 3"]);
  });

  it("rolls the whole group back when a member cannot be undone alone", async () => {
    const results = await Promise.allSettled([
      k.transaction().execute((trx) => insert(trx, 1)),
      k.transaction().execute(async (trx) => {
        await insert(trx, 2);
        // The member's savepoint is gone, so "rollback to" it fails: its write cannot be undone
        // alone, and committing the group would keep a failed transaction's write.
        await sql`release velvet_txn`.execute(trx);
        throw new Error("failed after its savepoint was released");
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(committedLabels()).toEqual([]);
    await k.transaction().execute((trx) => insert(trx, 4));
    expect(committedLabels()).toEqual(["item 4"]);
  });

  it("waits for another process's write lock without blocking the event loop", async () => {
    const lock = await holdWriteLock(file, 400);
    let longestGap = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    try {
      const started = performance.now();
      await Promise.all([
        k.transaction().execute((trx) => insert(trx, 1)),
        insert(k, 2),
        k.transaction().execute((trx) => insert(trx, 3)),
      ]);
      const waited = performance.now() - started;
      expect(waited).toBeGreaterThan(250);
      // Reads go on meanwhile (the reader connection): checked by the ticks above.
      expect(longestGap).toBeLessThan(50);
    } finally {
      clearInterval(ticker);
      await lock.released;
    }
    expect(committedLabels()).toEqual(["item 1", "item 2", "item 3"]);
  });

  it("gives up after busyTimeoutMs with DatabaseBusyError, writing nothing, and recovers", async () => {
    const impatient = openDatabase({ kind: "sqlite", file, busyTimeoutMs: 200 });
    const ik = impatient.kysely as unknown as Kysely<TestSchema>;
    try {
      const lock = await holdWriteLock(file, 1500);
      const started = performance.now();
      const results = await Promise.allSettled([
        ik.transaction().execute((trx) => insert(trx, 1)),
        insert(ik, 2),
      ]);
      expect(performance.now() - started).toBeLessThan(1200);
      for (const r of results) {
        expect(r.status).toBe("rejected");
        expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseBusyError);
      }
      await lock.released;
      // The writer was released and no empty group was left open: the next ones commit.
      await ik.transaction().execute((trx) => insert(trx, 3));
      await insert(ik, 4);
      expect(committedLabels()).toEqual(["item 3", "item 4"]);
    } finally {
      await impatient.close();
    }
  });

  it("runs synchronous transactions in the group: each all-or-nothing, answered after the COMMIT", async () => {
    const driver = db.sqlite?.driver;
    if (driver === undefined) throw new Error("expected the SQLite driver");
    const put = (id: number, label: string) =>
      transactSync(driver, (writer) => {
        writer.get("insert into items (id, label) values (?, ?)").run([id, `item ${id}`]);
        writer.get("insert into items (id, label) values (?, ?)").run([100 + id, label]);
        return committedLabels().includes(`item ${id}`);
      });
    const seenAtCommit: boolean[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, async (_, i) => {
        // The fifth fails on its second write; beside them, a Kysely transaction of the group.
        const pending = i === 3 ? k.transaction().execute((trx) => insert(trx, 50)) : null;
        const visibleInsideBody = await put(i, i === 4 ? "bad" : `item ${100 + i}`);
        await pending;
        seenAtCommit.push(committedLabels().includes(`item ${i}`));
        return visibleInsideBody;
      }),
    );
    expect(results.map((r) => r.status)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i === 4 ? "rejected" : "fulfilled")),
    );
    // Not committed while the body ran; committed once its promise resolved.
    expect(results.filter((r) => r.status === "fulfilled").map((r) => r.value)).not.toContain(true);
    expect(seenAtCommit.every(Boolean)).toBe(true);
    const labels = committedLabels();
    expect(labels).toContain("item 50");
    expect(labels).not.toContain("item 4");
    expect(labels).toHaveLength(19);
  });

  it("runs the synchronous bodies of one turn together at its end, in order, then one COMMIT", async () => {
    const driver = db.sqlite?.driver;
    if (driver === undefined) throw new Error("expected the SQLite driver");
    const log: string[] = [];
    const statements = vi.spyOn(driver.writer, "get");
    try {
      setImmediate(() => log.push("an earlier callback of the turn's end"));
      const answers = Array.from({ length: 5 }, (_, i) =>
        transactSync(driver, (writer) => {
          log.push(`body ${i}`);
          writer.get("insert into items (id, label) values (?, ?)").run([i, `item ${i}`]);
          return i;
        }).then((i) => log.push(`answer ${i}`)),
      );
      await Promise.all(answers);
      expect(log).toEqual([
        "an earlier callback of the turn's end",
        ...Array.from({ length: 5 }, (_, i) => `body ${i}`),
        ...Array.from({ length: 5 }, (_, i) => `answer ${i}`),
      ]);
      expect(statements.mock.calls.filter(([text]) => text === "commit")).toHaveLength(1);
      // One savepoint for the turn's bodies, not one each.
      expect(statements.mock.calls.filter(([text]) => text.startsWith("savepoint"))).toHaveLength(
        1,
      );
      expect(committedLabels()).toHaveLength(5);
    } finally {
      statements.mockRestore();
    }
  });

  it("undoes a turn's bodies when one throws, then runs each alone: only that one fails", async () => {
    const driver = db.sqlite?.driver;
    if (driver === undefined) throw new Error("expected the SQLite driver");
    const runs = [0, 0, 0, 0];
    const statements = vi.spyOn(driver.writer, "get");
    try {
      const results = await Promise.allSettled(
        runs.map((_, i) =>
          transactSync(driver, (writer) => {
            runs[i] = (runs[i] ?? 0) + 1;
            writer.get("insert into items (id, label) values (?, ?)").run([i, `item ${i}`]);
            if (i === 2) throw new Error("body 2 refuses");
            return i;
          }),
        ),
      );
      expect(results).toEqual([
        { status: "fulfilled", value: 0 },
        { status: "fulfilled", value: 1 },
        { status: "rejected", reason: new Error("body 2 refuses") },
        { status: "fulfilled", value: 3 },
      ]);
      // Together up to the one that threw (all undone), then each alone.
      expect(runs).toEqual([2, 2, 2, 1]);
      expect(statements.mock.calls.filter(([text]) => text.startsWith("savepoint"))).toHaveLength(
        5,
      );
      expect(committedLabels()).toEqual(["item 0", "item 1", "item 3"]);
    } finally {
      statements.mockRestore();
    }
  });

  it("fails a synchronous transaction whose group COMMIT fails, with the rest of the group", async () => {
    const driver = db.sqlite?.driver;
    if (driver === undefined) throw new Error("expected the SQLite driver");
    await sql`create table parents (id integer primary key)`.execute(k);
    await sql`create table children (id integer primary key, parent integer references parents (id) deferrable initially deferred)`.execute(
      k,
    );
    const results = await Promise.allSettled([
      transactSync(driver, (writer) =>
        writer.get("insert into items (id, label) values (1, 'a')").run(),
      ),
      // A deferred foreign key fails only at the group's COMMIT.
      transactSync(driver, (writer) =>
        writer.get("insert into children (id, parent) values (1, 99)").run(),
      ),
    ]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(committedLabels()).toEqual([]);
  });
});
