import type { Command } from "commander";
import type { AppDeps } from "../../app-deps.js";
import { serveMetrics } from "../../features/metrics/serve-metrics.js";
import { startServer, untilSignal } from "../../http/server.js";
import { createWorker } from "../../jobs/worker.js";
import { buildDeps, closeDeps } from "../../main.js";
import { allTasks } from "../../tasks.js";
import { startWorkerThread } from "../../worker-thread.js";
import { invokedAs } from "../invoked-as.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "run the HTTP server (public API and dashboard) and, unless WORKER_ENABLED=false, the job worker; migrates the database first",
    )
    .option("--json", "accepted for uniformity: the logs on stdout are always JSON lines")
    .action(async () => {
      const deps = await buildDeps({ longRunning: true });
      // A listener that cannot start ends the process, after releasing what was opened.
      const server = await startServer(deps).catch(async (error: unknown) => {
        await closeDeps(deps);
        throw error;
      });
      const metrics = await serveMetrics(deps).catch(async (error: unknown) => {
        await server.close();
        await closeDeps(deps);
        throw error;
      });
      const worker = await startWorker(deps).catch(async (error: unknown) => {
        await metrics.close();
        await server.close();
        await closeDeps(deps);
        throw error;
      });
      deps.log.info(
        {
          url: server.url,
          database: deps.db.dialect,
          workerId: worker?.id ?? null,
          workerRunsOn: worker?.runsOn ?? null,
        },
        "velvet is listening",
      );
      process.stderr.write(`${await startLine(deps, server.url)}\n`);
      const orphanWatch = stopWhenOrphaned(deps);
      await untilSignal(deps.log, async () => {
        clearInterval(orphanWatch);
        // Both finish what they hold (requests, jobs) before the database is closed.
        await Promise.all([server.close(), worker?.stop()]);
        await metrics.close();
        await closeDeps(deps);
      });
    });
}

/**
 * The job worker, unless WORKER_ENABLED=false: on a thread of its own (worker-thread.ts), or on
 * the serving thread with WORKER_THREAD=false and for an in-memory SQLite database, which another
 * thread cannot open.
 */
async function startWorker(
  deps: AppDeps,
): Promise<{ id: string; runsOn: "own thread" | "serving thread"; stop(): Promise<void> } | null> {
  if (!deps.config.worker.enabled) return null;
  const { database } = deps.config;
  if (deps.config.worker.thread && !(database.kind === "sqlite" && database.file === ":memory:")) {
    const thread = await startWorkerThread(deps, (error) => {
      deps.log.fatal({ err: error }, "the worker thread failed: stopping");
      process.exitCode = 1;
      process.kill(process.pid, "SIGTERM");
    });
    // Every commit that enqueued a job in this thread rings the worker's.
    deps.jobs.subscribe(thread.notify, { local: true });
    return { id: thread.id, runsOn: "own thread", stop: thread.stop };
  }
  const worker = createWorker(deps, allTasks(deps));
  worker.start();
  return { id: worker.id, runsOn: "serving thread", stop: worker.stop };
}

/** The one human line beside the JSON logs: where a person goes next. */
async function startLine(deps: AppDeps, url: string): Promise<string> {
  // PUBLIC_BASE_URL is the address people use; with PORT=0 only the bound address is known.
  const base = deps.config.port === 0 ? url : deps.config.publicBaseUrl;
  const anyAccount = await deps.db.kysely.selectFrom("accounts").select("id").limit(1).execute();
  const api = `(API: POST ${base}/api/v1/orders)`;
  if (anyAccount.length > 0) return `Velvet is running: open ${base}/login to sign in ${api}`;
  return deps.config.signup === "closed"
    ? `Velvet is running: sign-up is closed (SIGNUP=closed); create the first account with \`${invokedAs()} account create\`, then sign in at ${base}/login ${api}`
    : `Velvet is running: open ${base}/signup to create the first account ${api}`;
}

/**
 * Started by `npm start`, the server belongs to that npm process: when npm goes away without
 * passing a signal on (killed with SIGKILL, its terminal closed), the server is re-parented, and
 * it then stops as on SIGTERM instead of running on unseen. Checked once a second.
 */
function stopWhenOrphaned(deps: AppDeps): NodeJS.Timeout | undefined {
  if (process.env.npm_lifecycle_event !== "start") return undefined;
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    deps.log.warn({ parent }, "npm start went away: stopping");
    process.kill(process.pid, "SIGTERM");
  }, 1000);
  timer.unref();
  return timer;
}
