/** `velvet customer forget` and `velvet customer export`: a person's right to erasure and access. */
import type { Command } from "commander";
import type { AppDeps } from "../../app-deps.js";
import { getAccount } from "../../features/accounts/get-account.js";
import { erasedLabel } from "../../features/audit/audit-actions.js";
import { eraseCustomer } from "../../features/privacy/erase-customer.js";
import { exportCustomer } from "../../features/privacy/export-customer.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

interface PersonOptions {
  account: string;
  email: string;
  json?: boolean;
}

async function requireAccount(deps: AppDeps, accountId: string): Promise<void> {
  if (!(await getAccount(deps.db.kysely, accountId))) throw new CliError(`No account ${accountId}`);
}

export function registerCustomerPrivacy(customer: ReturnType<Command["command"]>): void {
  customer
    .command("forget")
    .description(
      "erase a customer and everything held about them (orders, enrichment, provider answers, alerts, jobs); the charge stays, unlinked",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "the customer's e-mail address")
    .option("--json", "print one JSON object")
    .action(async (opts: PersonOptions) => {
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
        const { chargesKept = 0, ...gone } = result.erased;
        const counts = Object.entries(gone).map(([name, n]) => `${n} ${erasedLabel(name)}`);
        return [
          `Customer ${result.customerId} erased: ${counts.join(", ")}.`,
          `Billing keeps ${chargesKept} charge (amount, price, month) without the person.`,
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
    .action(async (opts: Omit<PersonOptions, "json">) => {
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
