/**
 * The job worker of `velvet serve`, on a thread of its own (WORKER_THREAD, on by default). The
 * thread that answers orders then only takes them: enrichment's storing, scoring, events, alerts
 * and deliveries run on the worker thread's event loop, its own heap (its garbage is collected
 * without pausing requests) and its own database connections. It is the `velvet worker` process
 * in the same process: the same code, claiming the same jobs table, so what holds for a separate
 * worker holds here. On SQLite the two threads take the one write lock in turn, the serving
 * thread first (db/thread-write-lock.ts). The thread runs at the process's own CPU priority: at
 * a lower one it was preempted while holding the write lock, and orders waited for it (order
 * p99 22–25 ms against 15–18 ms at the same priority, measured at 300 new customers a second).
 *
 * The serving thread rings the thread after each commit that enqueued a job (`notify`), and
 * counts the thread's metrics in its own registry (forwarded-metrics.ts). A thread that fails
 * (an uncaught error) stops the process, as a crashed worker process would be restarted by its
 * supervisor: leases bring its jobs back, nothing is lost.
 */
import type { AppDeps } from "./app-deps.js";
import { applyForwarded } from "./features/metrics/forwarded-metrics.js";
import { DEFAULT_GRACE_MS } from "./jobs/worker.js";
import { startThread } from "./lib/start-thread.js";
import type {
  FromWorkerThread,
  ToWorkerThread,
  WorkerThreadData,
} from "./worker-thread-messages.js";

/** What a thread needs beyond the grace period to close its connections and end. */
const CLOSE_MS = 5000;

export interface WorkerThread {
  readonly id: string;
  /** Claim now: a job was just committed. */
  notify(): void;
  /** Lets running jobs finish (up to the grace period), releases the rest, ends the thread. */
  stop(): Promise<void>;
}

/** Starts the thread and resolves once its worker runs; rejects if it could not start. */
export function startWorkerThread(
  deps: AppDeps,
  onFailure: (error: unknown) => void,
): Promise<WorkerThread> {
  const data: WorkerThreadData = {
    metrics: deps.metrics.enabled,
    sqliteWriteLock: deps.db.sqlite?.writeLock?.buffer ?? null,
  };
  const thread = startThread(new URL("./worker-thread-entry.js", import.meta.url), {
    workerData: data,
  });
  const post = (message: ToWorkerThread) => thread.postMessage(message);
  let stopping: Promise<void> | null = null;
  let ended = false;
  const exited = new Promise<number>((resolve) => thread.once("exit", resolve));
  // A thread that ended holding SQLite's write lock (terminated, or failed mid-transaction)
  // leaves it to the serving thread.
  let writeLockId: number | null = null;
  void exited.then(() => {
    if (writeLockId !== null) deps.db.sqlite?.writeLock?.releaseFor(writeLockId);
  });
  void exited.then(() => {
    ended = true;
  });
  return new Promise((resolve, reject) => {
    let started = false;
    thread.on("message", (message: FromWorkerThread) => {
      if (message.type === "metrics") applyForwarded(deps.metrics, message.calls);
      else if (message.type === "ready") {
        started = true;
        writeLockId = message.writeLockId;
        resolve({
          id: message.workerId,
          notify: () => {
            if (!ended && stopping === null) post({ type: "wake" });
          },
          stop: () => {
            stopping ??= stopThread();
            return stopping;
          },
        });
      }
    });
    thread.on("error", (error) => {
      if (!started) reject(error);
      else if (stopping === null) onFailure(error);
      else deps.log.error({ err: error }, "worker thread failed while stopping");
    });
    void exited.then((code) => {
      if (!started)
        reject(new Error(`the worker thread ended before it started (exit code ${code})`));
      else if (stopping === null)
        onFailure(new Error(`the worker thread ended (exit code ${code})`));
    });
  });

  async function stopThread(): Promise<void> {
    if (ended) return;
    post({ type: "stop" });
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<"overdue">((resolve) => {
      timer = setTimeout(() => resolve("overdue"), DEFAULT_GRACE_MS + CLOSE_MS);
    });
    const outcome = await Promise.race([exited, overdue]);
    clearTimeout(timer);
    if (outcome === "overdue") {
      deps.log.error("the worker thread did not stop in time: ending it");
      await thread.terminate();
    }
  }
}
