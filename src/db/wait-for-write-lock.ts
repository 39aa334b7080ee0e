/**
 * Waiting for SQLite's write lock without blocking the event loop (see sqlite-driver.ts): the
 * writer connection has busy_timeout = 0, so a statement that needs the lock while another
 * process holds it fails at once with SQLITE_BUSY; this tries it again after an asynchronous
 * pause (1 ms doubling to 25 ms, so a released lock is taken within 25 ms) until `timeoutMs`
 * has passed, then fails with DatabaseBusyError, nothing having been written.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { DatabaseBusyError, isBusy } from "./errors.js";

const MAX_PAUSE_MS = 25;

export async function waitForWriteLock<T>(attempt: () => T, timeoutMs: number): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
      const left = deadline - performance.now();
      if (left <= 0) {
        throw new DatabaseBusyError(
          `another process held the SQLite write lock for more than ${timeoutMs} ms (SQLITE_BUSY_TIMEOUT_MS); nothing was written`,
          { cause: error },
        );
      }
      await sleep(Math.min(pause, left));
    }
  }
}
