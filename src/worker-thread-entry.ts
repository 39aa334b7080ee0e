/**
 * The worker thread's program (worker-thread.ts): the `velvet worker` process's dependencies and
 * loop, without migrating (the serving thread did), without checkpoints (the serving thread runs
 * them) and with its metrics forwarded to the serving thread's registry.
 */
import { parentPort, workerData } from "node:worker_threads";
import { monitorLoopDelay, THREAD_REPORT_MS } from "./features/metrics/event-loop-delay.js";
import { forwardedMetrics } from "./features/metrics/forwarded-metrics.js";
import { noMetrics } from "./features/metrics/metrics.js";
import { createWorker } from "./jobs/worker.js";
import { buildDeps, closeDeps } from "./main.js";
import { allTasks } from "./tasks.js";
import type {
  FromWorkerThread,
  ToWorkerThread,
  WorkerThreadData,
} from "./worker-thread-messages.js";

if (parentPort === null) throw new Error("worker-thread-entry runs only as a worker thread");
const port = parentPort;
const data = workerData as WorkerThreadData;
const post = (message: FromWorkerThread) => port.postMessage(message);

const metrics = data.metrics ? forwardedMetrics((calls) => post({ type: "metrics", calls })) : null;
const deps = await buildDeps({
  migrate: false,
  recordMetricsTo: metrics ?? noMetrics,
  sqliteWriteLock: data.sqliteWriteLock ?? undefined,
});
const worker = createWorker(deps, allTasks(deps));
port.on("message", (message: ToWorkerThread) => {
  if (message.type === "wake") worker.notify();
  else if (message.type === "stop") void stop();
});
// Its own event loop's delay, counted with the serving thread's metrics under thread="worker".
const loopDelay = metrics === null ? null : monitorLoopDelay();
const reportLoopDelay = () => {
  if (metrics !== null && loopDelay !== null) metrics.threadLoopDelay("worker", loopDelay());
};
const reporting = setInterval(reportLoopDelay, THREAD_REPORT_MS);
reporting.unref();
worker.start();
post({ type: "ready", workerId: worker.id, writeLockId: deps.db.sqlite?.writeLock?.id ?? null });

async function stop(): Promise<void> {
  // The jobs settle or are released before the database goes; the last counts go out.
  await worker.stop();
  await closeDeps(deps);
  clearInterval(reporting);
  reportLoopDelay();
  metrics?.flush();
  port.close();
}
