/**
 * A transaction whose body runs synchronously on SQLite's writer: better-sqlite3 statements, no
 * await in between, none of Kysely's per-query promises, connection hand-off and result copies
 * (for order intake, a third of the CPU its statements cost; orders/submit-order-sqlite.ts).
 * It is a member of the turn's group like any Kysely transaction (sqlite-driver.ts): its own
 * savepoint, answered only after the group's COMMIT, and the same failure paths, since it goes
 * through the driver's own begin, commit, rollback and release.
 */
import type { StatementCache, SyncTransactionDriver } from "./sqlite-driver.js";

/**
 * Runs `body` on the writer inside its own savepoint of the turn's group and resolves with what
 * it returned once the group has committed. A body that throws is rolled back to its savepoint
 * alone, and the promise rejects with what it threw; a failed group COMMIT rejects it too.
 */
export async function transactSync<T>(
  driver: SyncTransactionDriver,
  body: (writer: StatementCache) => T,
): Promise<T> {
  const handle = driver.connectionNow();
  try {
    await driver.beginTransaction(handle, {});
    let result: T;
    try {
      result = body(driver.writer);
    } catch (error) {
      driver.noteWriteError(error);
      await driver.rollbackTransaction(handle);
      throw error;
    }
    await driver.commitTransaction(handle);
    return result;
  } finally {
    // A failed BEGIN or release: rolls back what is left and frees the writer, as for Kysely.
    await driver.releaseConnection(handle);
  }
}
