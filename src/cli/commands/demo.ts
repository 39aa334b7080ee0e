/**
 * `velvet demo --account <id> [--remove [--yes]] [--json]`: add a generated sample store history
 * to an account (marked as sample, never billed, never alerted), or remove it (without --yes:
 * say what would go and change nothing). The dashboard's Overview offers the same ("Try it
 * with sample orders", "Remove sample data", the latter after a confirmation).
 */
import type { Command } from "commander";
import {
  addSampleData,
  previewSampleRemoval,
  removeSampleData,
} from "../../features/demo/sample-data.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { invokedAs } from "../invoked-as.js";
import { printDryRun, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(
      "add a sample store history to an account (marked as sample, never billed or alerted), or remove it",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--remove", "remove the sample data (real customers are untouched)")
    .option("--yes", "with --remove: remove (without it: say what would go and change nothing)")
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; remove?: boolean; yes?: boolean; json?: boolean }) => {
      const input = { accountId: opts.account, actor: commandActor() };
      if (opts.remove && !opts.yes) {
        const would = await withDeps((deps) => previewSampleRemoval(deps, opts.account), {
          providers: false,
        });
        printDryRun(
          Boolean(opts.json),
          { wouldRemove: would },
          would.customers === 0
            ? "No sample data in this account."
            : `Would remove ${plural(would.customers, "sample customer")} and ${plural(would.orders, "order")}; real customers and orders stay.`,
          "remove them; this cannot be undone",
        );
        return;
      }
      if (opts.remove) {
        const removed = await withDeps((deps) => removeSampleData(deps, input), {
          providers: false,
        });
        printResult(Boolean(opts.json), { removed }, () =>
          removed.customers === 0
            ? "No sample data in this account."
            : `Removed ${plural(removed.customers, "sample customer")} and ${plural(removed.orders, "order")}.`,
        );
        return;
      }
      const added = await withDeps((deps) => addSampleData(deps, input), { providers: false });
      printResult(Boolean(opts.json), { added }, () =>
        [
          added.customers === 0
            ? `The sample data is already there (${plural(added.skipped, "order")}).`
            : `Added ${plural(added.customers, "sample customer")} with ${plural(added.orders, "order")}: marked as sample, not billed, not alerted.`,
          `They are enriched and scored by the worker of \`${invokedAs()} serve\` (npm start) within a minute.`,
          `Remove them with: ${invokedAs()} demo --account ${opts.account} --remove --yes`,
        ].join("\n"),
      );
    });
}
