/**
 * A worker process for tests: `node --import tsx test/support/worker-entry.ts [--grace-ms N]`,
 * configured by the usual environment (DATABASE_URL, JOB_LEASE_MS, WORKER_POLL_INTERVAL_MS …),
 * running only the recording task, and shutting down like `velvet worker` on SIGTERM/SIGINT.
 */
import { pino } from "pino";
import { loadConfig } from "../../src/config.js";
import { untilSignal } from "../../src/http/server.js";
import { createWorker } from "../../src/jobs/worker.js";
import { buildDeps, closeDeps } from "../../src/main.js";
import { recordingTask } from "./recording-task.js";

const graceIndex = process.argv.indexOf("--grace-ms");
const graceMs = graceIndex === -1 ? undefined : Number(process.argv[graceIndex + 1]);

const config = loadConfig();
const deps = await buildDeps({
  config,
  log: pino({ level: config.logLevel }, pino.destination(2)),
});
const worker = createWorker(deps, [recordingTask], { graceMs });
worker.start();
await untilSignal(deps.log, async () => {
  await worker.stop();
  await closeDeps(deps);
});
