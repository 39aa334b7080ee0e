import type { Command } from "commander";
import { prepareDatabase } from "../../main.js";
import { printResult } from "../output.js";
import { withDeps } from "../with-deps.js";

export function registerMigrate(program: Command): void {
  program
    .command("migrate")
    .description("apply pending database migrations")
    .option("--json", "print one JSON object")
    .action(async (opts: { json?: boolean }) => {
      const report = await withDeps((deps) => prepareDatabase(deps.db, deps.log), {
        migrate: false,
      });
      printResult(
        Boolean(opts.json),
        { applied: report.applied, zipIncomesLoaded: report.zipIncomesLoaded },
        () =>
          [
            report.applied.length === 0
              ? "Database is up to date."
              : `Applied: ${report.applied.join(", ")}`,
            ...(report.zipIncomesLoaded > 0
              ? [`Loaded ${report.zipIncomesLoaded} Census ZIP-code incomes (bundled).`]
              : []),
          ].join("\n"),
      );
    });
}
