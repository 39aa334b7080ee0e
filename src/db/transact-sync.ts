/**
 * A transaction whose body runs synchronously on SQLite's writer: better-sqlite3 statements, no
 * await in between, none of Kysely's per-query promises, connection hand-off and result copies
 * (for order intake, a third of the CPU its statements cost; orders/submit-order-sqlite.ts).
 * It is a member of the turn's group like any Kysely transaction (sqlite-driver.ts): its own
 * savepoint, answered only after the group's COMMIT, and the same failure paths, since it goes
 * through the driver's own begin, commit, rollback and release.
 *
 * The bodies of one event-loop turn run together at the turn's end, one after the other in the
 * order they were asked for, and the group commits right after the last: SQLite's code and the
 * B-tree pages they share stay in the processor's caches from one body to the next instead of
 * being evicted by the HTTP work between requests (about a fifth less CPU per new customer for
 * the whole server, docs/performance.md). The answer comes no later: the group committed at the turn's end
 * before too.
 */
import type { StatementCache, SyncTransactionDriver } from "./sqlite-driver.js";

interface Pending {
  body: (writer: StatementCache) => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** This turn's bodies per driver, waiting for the turn's end. */
const turns = new WeakMap<SyncTransactionDriver, Pending[]>();

/**
 * Runs `body` on the writer inside its own savepoint of the turn's group and resolves with what
 * it returned once the group has committed. A body that throws is rolled back to its savepoint
 * alone, and the promise rejects with what it threw; a failed group COMMIT rejects it too.
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

/** Each body in turn (the writer is handed from one to the next in order), then the COMMIT. */
function runTurn(driver: SyncTransactionDriver, pending: Pending[]): void {
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
