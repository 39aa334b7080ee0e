/** `velvet customer forget` and `velvet customer export`: a person's right to erasure and access. */
import type { Command } from "commander";
import type { AppDeps } from "../../app-deps.js";
import { getAccount } from "../../features/accounts/get-account.js";
import { erasedLabel } from "../../features/audit/audit-actions.js";
import { eraseCustomer } from "../../features/privacy/erase-customer.js";
import type { ErasedCounts } from "../../features/privacy/erase-customer-rows.js";
import { exportCustomer } from "../../features/privacy/export-customer.js";
import { previewCustomerErasure } from "../../features/privacy/preview-erasure.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printDryRun, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

interface PersonOptions {
  account: string;
  email: string;
  json?: boolean;
  yes?: boolean;
}

async function requireAccount(deps: AppDeps, accountId: string): Promise<void> {
  if (!(await getAccount(deps, accountId))) throw new CliError(`No account ${accountId}`);
}

export function registerCustomerPrivacy(customer: ReturnType<Command["command"]>): void {
  customer
    .command("forget")
    .description(
      "erase a customer and everything held about them (orders, enrichment, provider answers, alerts, jobs); the charge stays, unlinked",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "the customer's e-mail address")
    .option("--yes", "erase (without it: say what would be erased and change nothing)")
    .option("--json", "print one JSON object")
    .action(async (opts: PersonOptions) => {
      if (!opts.yes) {
        const preview = await withDeps(async (deps) => {
          await requireAccount(deps, opts.account);
          return previewCustomerErasure(deps, opts.account, { email: opts.email });
        });
        if (!preview) throw new CliError(`No customer ${opts.email} in account ${opts.account}`);
        printDryRun(
          Boolean(opts.json),
          { customerId: preview.customerId, wouldErase: preview.erased },
          `Would erase customer ${preview.customerId} (${opts.email}): ${describeErased(preview.erased)}.`,
          "erase them; this cannot be undone",
        );
        return;
      }
      const result = await withDeps(async (deps) => {
        await requireAccount(deps, opts.account);
        return eraseCustomer(deps, {
          accountId: opts.account,
          lookup: { email: opts.email },
          actor: commandActor(),
        });
      });
      if (!result) throw new CliError(`No customer ${opts.email} in account ${opts.account}`);
      printResult(Boolean(opts.json), result, () => {
        return [
          `Customer ${result.customerId} erased: ${describeErased(result.erased)}.`,
          `Billing keeps ${plural(result.erased.chargesKept ?? 0, "charge")} (amount, price, month) without the person.`,
          ...(result.walCleared
            ? []
            : [
                "Note: a reader kept the SQLite WAL busy; old copies leave it at the next checkpoint.",
              ]),
        ].join("\n");
      });
    });

  customer
    .command("export")
    .description("print everything stored about a customer as one JSON document")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "the customer's e-mail address")
    .option("--json", "accepted for uniformity: the document is always JSON")
    .action(async (opts: PersonOptions) => {
      const document = await withDeps(async (deps) => {
        await requireAccount(deps, opts.account);
        return exportCustomer(deps, {
          accountId: opts.account,
          lookup: { email: opts.email },
          actor: commandActor(),
        });
      });
      if (!document) throw new CliError(`No customer ${opts.email} in account ${opts.account}`);
      process.stdout.write(`${JSON.stringify(document)}\n`);
    });
}

/** "their details, 2 orders, 1 enrichment, …": each count the registry's holders reported. */
function describeErased(e: ErasedCounts): string {
  const { chargesKept: _kept, ...gone } = e;
  const counts = Object.entries(gone).map(([name, n]) => {
    const label = erasedLabel(name);
    return plural(n, label.replace(/s$/, ""), label);
  });
  return ["their details", ...counts].join(", ");
}
