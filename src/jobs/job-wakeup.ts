/**
 * The doorbell between code that enqueues jobs and the workers: after committing a transaction
 * that enqueued a job, call `notify()` and a worker claims it within milliseconds instead of at
 * its next poll. Ring only after the commit: a worker woken earlier cannot see the uncommitted
 * row on PostgreSQL. Polling stays correct on its own; this only shortens the wait.
 *
 * In-process, always. Across processes when given a `crossProcess` (PostgreSQL: pg-wakeups.ts):
 * `notify()` also asks for a coalesced NOTIFY, and while a worker of this process is subscribed a
 * LISTEN connection rings it for jobs other processes enqueued. `listening` says whether that
 * connection is up, so the worker may poll slowly. On SQLite (one machine) a worker in another
 * process finds jobs at its poll.
 */
import type { WakeupListener } from "./pg-wakeups.js";

export interface JobWakeup {
  notify(): void;
  /**
   * Returns the function that unsubscribes. A `local` listener hears this process's `notify()`
   * only, never opening a LISTEN connection (a relay to a worker thread that listens itself).
   */
  subscribe(listener: () => void, options?: { local?: boolean }): () => void;
  /** True while wake-ups from other processes arrive (a healthy LISTEN connection). */
  readonly listening: boolean;
  /** Stops listening and sending. */
  close(): Promise<void>;
}

export interface CrossProcessWakeups {
  /** Tell the other processes (coalesced, fire-and-forget). */
  broadcast(): void;
  /** Start hearing the other processes. */
  listen(onWake: () => void): WakeupListener;
  close(): Promise<void>;
}

export function createJobWakeup(crossProcess?: CrossProcessWakeups): JobWakeup {
  const listeners = new Set<() => void>();
  let listener: WakeupListener | null = null;
  const ring = () => {
    for (const l of listeners) l();
  };
  return {
    notify: () => {
      ring();
      crossProcess?.broadcast();
    },
    subscribe: (l, options) => {
      listeners.add(l);
      if (options?.local === true) return () => listeners.delete(l);
      if (crossProcess !== undefined && listener === null) listener = crossProcess.listen(ring);
      return () => {
        listeners.delete(l);
        if (listeners.size === 0 && listener !== null) {
          void listener.close();
          listener = null;
        }
      };
    },
    get listening() {
      return listener?.healthy ?? false;
    },
    async close() {
      await listener?.close();
      listener = null;
      await crossProcess?.close();
    },
  };
}
