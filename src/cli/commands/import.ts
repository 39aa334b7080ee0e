/**
 * `velvet import orders <file> --account <id> [--yes] [--json] [--alerts]`: backfill a store's
 * history from its order export. Without --yes it is a dry run. The summary goes to stdout (one
 * JSON object with --json); progress and bad rows go to stderr: a bar redrawn in place on a
 * terminal, JSON lines with --json (`{"progress":{…}}`, `{"rowError":{"line":…,"reason":…}}`).
 * Ctrl-C stops after the batch in flight and prints what was done; the same command finishes
 * the rest.
 */
import type { Command } from "commander";
import { chargeLine, providerCostLine } from "../../features/enrichment/describe-lookup-cost.js";
import { type ImportSummary, importOrders } from "../../features/order-import/import-orders.js";
import { ImportError } from "../../features/order-import/read-order-file.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { renderProgressBar } from "../progress-bar.js";
import { withDeps } from "../with-deps.js";

interface ImportOpts {
  account: string;
  yes?: boolean;
  json?: boolean;
  alerts?: boolean;
}

export function registerImport(program: Command): void {
  const group = program.command("import").description("backfill a store's history from a file");
  group
    .command("orders")
    .description(
      "import a Shopify, WooCommerce or plain CSV order export; a dry run (nothing written, the cost shown) unless --yes",
    )
    .argument("<file.csv>", "the order export")
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--yes", "import (without it: a dry run that shows counts and cost)")
    .option("--alerts", "raise VIP alerts for imported customers (default: scored, not alerted)")
    .option("--json", "progress as JSON lines on stderr, one JSON summary on stdout")
    .action(async (file: string, opts: ImportOpts) => {
      const json = Boolean(opts.json);
      const tty = !json && process.stderr.isTTY === true;
      const stop = new AbortController();
      const onSigint = () => {
        if (stop.signal.aborted) process.exit(130);
        stop.abort();
      };
      process.on("SIGINT", onSigint);
      let barShown = false;
      const summary = await withDeps(
        async (deps) => {
          try {
            return await importOrders(deps, {
              accountId: opts.account,
              file,
              apply: Boolean(opts.yes),
              alerts: Boolean(opts.alerts),
              signal: stop.signal,
              actor: commandActor(),
              onProgress: (p) => {
                if (json) process.stderr.write(`${JSON.stringify({ progress: p })}\n`);
                else if (tty) {
                  process.stderr.write(`\r${renderProgressBar(p)}`);
                  barShown = true;
                }
              },
              onRowError: (e) => {
                if (json) process.stderr.write(`${JSON.stringify({ rowError: e })}\n`);
                else
                  process.stderr.write(
                    `${barShown ? "\r\x1b[K" : ""}line ${e.line}: ${e.reason}\n`,
                  );
              },
            });
          } catch (error) {
            if (error instanceof ImportError) throw new CliError(error.message);
            throw error;
          } finally {
            process.off("SIGINT", onSigint);
            if (barShown) process.stderr.write("\n");
          }
        },
        { providers: false },
      );
      printResult(json, { dryRun: !opts.yes, ...summary }, () =>
        describe(summary, Boolean(opts.yes)),
      );
      if (stop.signal.aborted) {
        process.stderr.write(
          "velvet: interrupted; run the same command again to import the rest\n",
        );
        process.exitCode = 130;
      }
    });
}

function describe(s: ImportSummary, applied: boolean): string {
  const n = (count: number) => count.toLocaleString("en-US");
  const lines = [
    `${n(s.rows)} rows: ${plural(s.orders, "order")} of ${plural(s.customers, "customer")}, ${n(s.newCustomers)} new`,
    chargeLine(s, applied),
    `${applied ? "Already imported (skipped)" : "Already imported (would skip)"}: ${n(s.skipped)}; bad rows: ${n(s.errors)}`,
    providerCostLine(s),
  ];
  if (s.forgotten > 0)
    lines.push(
      `Orders of forgotten customers (${applied ? "skipped" : "would skip"}): ${n(s.forgotten)}`,
    );
  if (!applied) lines.unshift("Dry run: nothing was written. Run again with --yes to import.");
  return lines.join("\n");
}
