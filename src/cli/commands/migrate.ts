import type { Command } from "commander";
import { migrateToLatest } from "../../db/migrate.js";
import { printResult } from "../output.js";
import { withDeps } from "../with-deps.js";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations")
    .option("--json", "print one JSON object")
    .action(async (opts: { json?: boolean }) => {
      const report = await withDeps((deps) => migrateToLatest(deps.db.kysely), { migrate: false });
      printResult(Boolean(opts.json), { applied: report.applied }, () =>
        report.applied.length === 0
          ? "Database is up to date."
          : `Applied: ${report.applied.join(", ")}`,
      );
    });
}
