/**
 * `velvet worker` as a benchmark subject: the job worker alone, in its own process, on the
 * database of a `velvet serve` started by velvet-process.ts (which then runs with
 * WORKER_ENABLED=false). Resolves once the worker says it is running.
 */
import fs from "node:fs";
import path from "node:path";
import { type StartedChild, startChild, tail } from "./children.js";

const VELVET = path.resolve("bin", "velvet.js");
const READY = "velvet worker is running";

export async function startVelvetWorker(options: {
  dir: string;
  databaseFile: string;
  env: Record<string, string>;
}): Promise<StartedChild> {
  const logFile = path.join(options.dir, "velvet-worker.log");
  const child = startChild(process.execPath, [VELVET, "worker"], {
    env: {
      ...process.env,
      DATABASE_URL: options.databaseFile,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
      ...options.env,
    },
    logFile,
  });
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) break;
    if (fs.existsSync(logFile) && fs.readFileSync(logFile, "utf8").includes(READY)) return child;
    await new Promise((r) => setTimeout(r, 50));
  }
  await child.stop();
  throw new Error(`velvet worker did not start; last log lines:\n${tail(logFile)}`);
}
