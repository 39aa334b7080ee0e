import type { Command } from "commander";
import { serveMetrics } from "../../features/metrics/serve-metrics.js";
import { startServer, untilSignal } from "../../http/server.js";
import { createWorker } from "../../jobs/worker.js";
import { buildDeps, closeDeps } from "../../main.js";
import { allTasks } from "../../tasks.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description(
      "run the HTTP server (public API and dashboard) and, unless WORKER_ENABLED=false, the job worker; migrates the database first",
    )
    .action(async () => {
      const deps = await buildDeps({ longRunning: true });
      const server = await startServer(deps);
      const metrics = await serveMetrics(deps);
      const worker = deps.config.worker.enabled ? createWorker(deps, allTasks(deps)) : null;
      worker?.start();
      deps.log.info(
        { url: server.url, database: deps.db.dialect, workerId: worker?.id ?? null },
        "velvet is listening",
      );
      await untilSignal(deps.log, async () => {
        // Both finish what they hold (requests, jobs) before the database is closed.
        await Promise.all([server.close(), worker?.stop()]);
        await metrics.close();
        await closeDeps(deps);
      });
    });
}
