/**
 * `velvet demo --account <id> [--remove] [--json]`: add a generated sample store history to an
 * account (marked as sample, never billed, never alerted), or remove it. The dashboard's
 * Overview offers the same ("Try it with sample orders", "Remove sample data").
 */
import type { Command } from "commander";
import { addSampleData, removeSampleData } from "../../features/demo/sample-data.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { printResult } from "../output.js";
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
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; remove?: boolean; json?: boolean }) => {
      const input = { accountId: opts.account, actor: commandActor() };
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
          "They are enriched and scored by the worker of `velvet serve` within a minute.",
          `Remove them with: velvet demo --account ${opts.account} --remove`,
        ].join("\n"),
      );
    });
}
