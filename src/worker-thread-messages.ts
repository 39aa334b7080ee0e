/** What `velvet serve` and its worker thread say to each other (worker-thread.ts). */
import type { ForwardedCall } from "./features/metrics/forwarded-metrics.js";

export interface WorkerThreadData {
  /** Forward metrics to the serving thread's registry (METRICS_PORT is set). */
  metrics: boolean;
  /** SQLite: the serving thread's write lock, taken in turn (db/thread-write-lock.ts). */
  sqliteWriteLock: SharedArrayBuffer | null;
}

export type ToWorkerThread =
  /** A job was committed in the serving thread: claim now. */
  | { type: "wake" }
  /** Finish or release the running jobs, close, then say `stopped`. */
  | { type: "stop" };

export type FromWorkerThread =
  /** `writeLockId`: the thread's side of SQLite's write lock (db/thread-write-lock.ts). */
  | { type: "ready"; workerId: string; writeLockId: number | null }
  | { type: "metrics"; calls: ForwardedCall[] }
  | { type: "stopped" };
