import type { Command } from "commander";
import { startServer, untilSignal } from "../../http/server.js";
import { buildDeps, closeDeps } from "../../main.js";

export function registerServe(program: Command): void {
  program
    .command("serve")
    .description("run the HTTP server (public API and dashboard), migrating the database first")
    .action(async () => {
      const deps = await buildDeps();
      const server = await startServer(deps);
      deps.log.info({ url: server.url, database: deps.db.dialect }, "velvet is listening");
      await untilSignal(deps.log, async () => {
        await server.close();
        await closeDeps(deps);
      });
    });
}
