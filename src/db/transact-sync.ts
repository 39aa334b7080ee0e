/**
 * A transaction whose body runs synchronously on SQLite's writer: better-sqlite3 statements, no
 * await in between, none of Kysely's per-query promises, connection hand-off and result copies
 * (for order intake, a third of the CPU its statements cost; orders/submit-order-sqlite.ts).
 * It is a member of the turn's group like any Kysely transaction (sqlite-driver.ts): answered
 * only after the group's COMMIT, with the same failure paths, since it goes through the
 * driver's own begin, commit, rollback and release.
 *
 * The bodies of one event-loop turn run together at the turn's end, one after the other in the
 * order they were asked for, and the group commits right after the last: SQLite's code and the
 * B-tree pages they share stay in the processor's caches from one body to the next instead of
 * being evicted by the HTTP work between requests (about a fifth less CPU per new customer for
 * the whole server, docs/performance.md). The answer comes no later: the group committed at the
 * turn's end before too.
 *
 * They share one savepoint: SQLite copies each page into a savepoint's journal the first time
 * the savepoint changes it, and the bodies of a turn change the same index pages (each table's
 * newest keys), so a savepoint per body copied those pages once per body. When a body throws,
 * the turn's savepoint is undone and every body of the turn runs again in a savepoint of its
 * own, as a member of the group alone: the one that threw fails by itself, the others are
 * written. So a body may run twice and must do nothing but its statements on the writer (no
 * I/O, nothing remembered outside what it returns).
 */
import type { DatabaseConnection, Driver } from "kysely";
import type { StatementCache } from "./sqlite-statement-cache.js";

/**
 * What a synchronous transaction needs of the driver (sqlite-driver.ts) besides Kysely's
 * Driver methods: the writer's statements for its body; a connection at once, so that its BEGIN
 * queues for the writer in the caller's turn (an await first would let later callers ahead);
 * its body's error noted, as a statement's is, in case SQLite rolled the group back; and the
 * group committed at once when the turn's last synchronous transaction has joined it.
 */
export interface SyncTransactionDriver
  extends Pick<
    Driver,
    "beginTransaction" | "commitTransaction" | "rollbackTransaction" | "releaseConnection"
  > {
  readonly writer: StatementCache;
  connectionNow(): DatabaseConnection;
  noteWriteError(error: unknown): void;
  commitGroupNow(): void;
}

interface Pending {
  body: (writer: StatementCache) => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** This turn's bodies per driver, waiting for the turn's end. */
const turns = new WeakMap<SyncTransactionDriver, Pending[]>();

/**
 * Runs `body` on the writer inside the turn's group and resolves with what it returned once the
 * group has committed. A body that throws is undone alone, and the promise rejects with what it
 * threw; a failed group COMMIT rejects it too.
 */
export function transactSync<T>(
  driver: SyncTransactionDriver,
  body: (writer: StatementCache) => T,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let turn = turns.get(driver);
    if (turn === undefined) {
      const pending: Pending[] = [];
      turn = pending;
      turns.set(driver, pending);
      // After this turn's I/O callbacks, like the group's own COMMIT.
      setImmediate(() => {
        turns.delete(driver);
        runTurn(driver, pending);
      });
    }
    turn.push({ body, resolve: resolve as (value: unknown) => void, reject });
  });
}

/** The turn's bodies in one savepoint; if one throws, each again in a savepoint of its own. */
function runTurn(driver: SyncTransactionDriver, pending: Pending[]): void {
  if (pending.length === 1) {
    runEach(driver, pending);
    return;
  }
  runTogether(driver, pending).then(
    (results) => {
      if (results === null) runEach(driver, pending);
      else for (const [i, { resolve }] of pending.entries()) resolve(results[i]);
    },
    (error: unknown) => {
      for (const { reject } of pending) reject(error);
    },
  );
}

/** The bodies' results once committed, or null (nothing written) when one of them threw. */
async function runTogether(
  driver: SyncTransactionDriver,
  pending: Pending[],
): Promise<unknown[] | null> {
  const handle = driver.connectionNow();
  try {
    await driver.beginTransaction(handle, {});
    let results: unknown[];
    try {
      results = pending.map(({ body }) => body(driver.writer));
    } catch (error) {
      driver.noteWriteError(error);
      // Undoes the turn's savepoint (or, where that cannot be done alone, the whole group, whose
      // other members then fail): in both cases nothing of these bodies is left to commit.
      await driver.rollbackTransaction(handle).catch(() => {});
      return null;
    }
    // Joins the group and frees the writer; the group commits now, its last member being in.
    const committed = driver.commitTransaction(handle);
    driver.commitGroupNow();
    await committed;
    return results;
  } finally {
    // A failed BEGIN or release: rolls back what is left and frees the writer, as for Kysely.
    await driver.releaseConnection(handle);
  }
}

/** Each body in turn (the writer is handed from one to the next in order), then the COMMIT. */
function runEach(driver: SyncTransactionDriver, pending: Pending[]): void {
  const last = pending.length - 1;
  for (const [i, { body, resolve, reject }] of pending.entries()) {
    runOne(driver, body, i === last).then(resolve, reject);
  }
}

async function runOne<T>(
  driver: SyncTransactionDriver,
  body: (writer: StatementCache) => T,
  last: boolean,
): Promise<T> {
  const handle = driver.connectionNow();
  try {
    let result: T;
    let committed: Promise<void>;
    try {
      await driver.beginTransaction(handle, {});
      try {
        result = body(driver.writer);
      } catch (error) {
        driver.noteWriteError(error);
        await driver.rollbackTransaction(handle);
        throw error;
      }
      // Joins the group and hands the writer to the next body; settles with the group's COMMIT.
      committed = driver.commitTransaction(handle);
    } finally {
      // The turn's last body has joined the group (or failed): commit now, not a turn later.
      if (last) driver.commitGroupNow();
    }
    await committed;
    return result;
  } finally {
    // A failed BEGIN or release: rolls back what is left and frees the writer, as for Kysely.
    await driver.releaseConnection(handle);
  }
}
