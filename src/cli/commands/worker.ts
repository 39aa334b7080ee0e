import type { Command } from "commander";
import { serveMetrics } from "../../features/metrics/serve-metrics.js";
import { untilSignal } from "../../http/server.js";
import { createWorker } from "../../jobs/worker.js";
import { buildDeps, closeDeps } from "../../main.js";
import { allTasks } from "../../tasks.js";

export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "run background jobs only (no HTTP), migrating the database first; stops on SIGTERM/SIGINT",
    )
    .option("--json", "accepted for uniformity: the logs on stdout are always JSON lines")
    .action(async () => {
      const deps = await buildDeps({ longRunning: true });
      // A metrics listener that cannot start ends the process, after releasing the database.
      const metrics = await serveMetrics(deps).catch(async (error: unknown) => {
        await closeDeps(deps);
        throw error;
      });
      const worker = createWorker(deps, allTasks(deps));
      worker.start();
      deps.log.info({ workerId: worker.id, database: deps.db.dialect }, "velvet worker is running");
      await untilSignal(deps.log, async () => {
        // The worker settles or releases its jobs before the database goes.
        await worker.stop();
        await metrics.close();
        await closeDeps(deps);
      });
    });
}
