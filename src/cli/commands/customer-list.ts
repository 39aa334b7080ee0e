/**
 * `velvet customer list`: the account's customers (all, the VIPs, one tier) as CSV or as one
 * JSON object, written to stdout as they are read (customers/customer-list-entries.ts), waiting
 * for stdout to drain, so a million customers pass through a flat amount of memory. Audited.
 */
import { once } from "node:events";
import type { Command } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { customerListChunks } from "../../features/customers/customer-list-chunks.js";
import { customerListEntries } from "../../features/customers/customer-list-entries.js";
import { recordCustomerList } from "../../features/customers/record-customer-list.js";
import { formatTiers, tierRange } from "../../features/customers/tiers.js";
import { commandActor } from "../cli-actor.js";
import { CliError } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

interface ListOptions {
  account: string;
  vip?: boolean;
  tier?: string;
  csv?: boolean;
  json?: boolean;
}

/**
 * Writes each chunk, waiting for stdout to drain when it is full; stops reading when stdout is
 * closed (`velvet customer list --csv | head`), as a reader that has had enough.
 */
async function writeAll(chunks: AsyncIterable<string>): Promise<void> {
  let closed = false;
  const onError = (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed = true;
    process.stdout.emit("drain");
  };
  process.stdout.on("error", onError);
  try {
    for await (const chunk of chunks) {
      if (closed) break;
      if (!process.stdout.write(chunk) && !closed) await once(process.stdout, "drain");
    }
  } finally {
    process.stdout.off("error", onError);
  }
}

export function registerCustomerList(customer: ReturnType<Command["command"]>): void {
  customer
    .command("list")
    .description(
      "every customer (or the VIPs, or one tier) as CSV or JSON: e-mail, name, score, tier, VIP since, lifetime spend, order count",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--vip", "only the VIPs")
    .option("--tier <name>", "only the customers of this tier")
    .option("--csv", "CSV with a header row (formula-like cells written as text)")
    .option("--json", 'one JSON object, {"customers": […]}')
    .action(async (opts: ListOptions) => {
      if (Boolean(opts.csv) === Boolean(opts.json))
        throw new CliError("Choose one format: --csv or --json.");
      await withDeps(
        async (deps) => {
          const account = await getAccount(deps, opts.account);
          if (!account) throw new CliError(`No account ${opts.account}`);
          if (opts.tier !== undefined && tierRange(opts.tier, account.tiers) === null) {
            const named = formatTiers(account.tiers);
            throw new CliError(
              `Account ${opts.account} has no tier "${opts.tier}": ${named === "" ? "it names no tiers (velvet account set --tiers)" : `its tiers are ${named}`}.`,
            );
          }
          const filter = { vip: Boolean(opts.vip), tier: opts.tier ?? null };
          const format = opts.csv ? "csv" : "json";
          await recordCustomerList(
            deps.db.kysely,
            { accountId: opts.account, actor: commandActor(), format, filter },
            deps.clock.now(),
          );
          const entries = customerListEntries(deps.db.kysely, opts.account, filter);
          await writeAll(customerListChunks(entries, format));
        },
        { providers: false },
      );
    });
}
