/**
 * An in-process doorbell between code that enqueues jobs and the worker running in the same
 * process: after committing a transaction that enqueued a job, call `notify()` and the worker
 * claims it within milliseconds instead of at its next poll. Ring only after the commit: a
 * worker woken earlier cannot see the uncommitted row on PostgreSQL. Polling stays correct on
 * its own; this only shortens the wait. Workers in other processes are not reached.
 */
export interface JobWakeup {
  notify(): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: () => void): () => void;
}

export function createJobWakeup(): JobWakeup {
  const listeners = new Set<() => void>();
  return {
    notify: () => {
      for (const listener of listeners) listener();
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
