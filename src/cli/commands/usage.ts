import { type Command, InvalidArgumentError } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { getUsage, isMonth, monthOf } from "../../features/billing/get-usage.js";
import { getProviderSpend } from "../../features/billing/provider-spend.js";
import { formatMoney } from "../../lib/money.js";
import { plural } from "../../lib/plural.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

function parseMonth(value: string): string {
  if (!isMonth(value)) throw new InvalidArgumentError("expected a month as YYYY-MM");
  return value;
}

export function registerUsage(program: Command): void {
  program
    .command("usage")
    .description(
      "enrichments charged in a month (UTC) and their cost, beside what each provider billed",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--month <YYYY-MM>", "the month (default: the current one)", parseMonth)
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; month?: string; json?: boolean }) => {
      const usage = await withDeps(async (deps) => {
        if (!(await getAccount(deps, opts.account)))
          throw new CliError(`No account ${opts.account}`);
        const month = opts.month ?? monthOf(deps.clock.now());
        const [charged, spend] = await Promise.all([
          getUsage(deps.db.kysely, opts.account, month, deps.config.enrichmentPriceUsd),
          getProviderSpend(deps.db.kysely, opts.account, month),
        ]);
        return { ...charged, ...spend };
      });
      printResult(Boolean(opts.json), usage, () =>
        [
          `${usage.month}: ${plural(usage.enrichments, "enrichment")} × ${formatMoney(usage.unitPriceUsd, "USD")} = ${formatMoney(usage.amountUsd, "USD")}`,
          `provider costs: ${formatMoney(usage.providerCostUsd, "USD")}`,
          ...usage.providers.map(
            (p) =>
              `  ${p.provider}: ${plural(p.lookups, "billed lookup")} = ${formatMoney(p.amountUsd, "USD")}`,
          ),
        ].join("\n"),
      );
    });
}
