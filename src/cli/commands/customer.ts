import type { Command } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { getCustomerReport } from "../../features/customers/get-customer-report.js";
import type { ScoreSignal } from "../../features/enrichment/score/score-signal.js";
import { signalLabel } from "../../features/enrichment/score/signal-labels.js";
import { formatSignalValue } from "../../features/enrichment/score/signal-values.js";
import { verdictsOf } from "../../features/verdicts/list-verdicts.js";
import { VERDICT_LABELS } from "../../features/verdicts/verdict-links.js";
import { formatMoney } from "../../lib/money.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";
import { registerCustomerList } from "./customer-list.js";
import { registerCustomerPrivacy } from "./customer-privacy.js";
import { registerCustomerVerdict } from "./customer-verdict.js";

export function registerCustomer(program: Command): void {
  const customer = program.command("customer").description("inspect, export and erase customers");
  registerCustomerPrivacy(customer);
  registerCustomerVerdict(customer);
  registerCustomerList(customer);
  customer
    .command("show")
    .description("a customer's enrichment (status, score, tier, VIP, signals) and orders")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "the customer's e-mail address")
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; email: string; json?: boolean }) => {
      const report = await withDeps(async (deps) => {
        if (!(await getAccount(deps, opts.account)))
          throw new CliError(`No account ${opts.account}`);
        const found = await getCustomerReport(deps.db.kysely, opts.account, { email: opts.email });
        if (!found) return null;
        const given = (await verdictsOf(deps.db.kysely, opts.account, [found.customerId])).get(
          found.customerId,
        );
        const verdict =
          given === undefined
            ? null
            : {
                verdict: given.verdict,
                source: given.source,
                givenBy: given.givenBy,
                givenAt: new Date(given.givenAt).toISOString(),
              };
        return { ...found, verdict };
      });
      if (!report) throw new CliError(`No customer ${opts.email} in account ${opts.account}`);
      printResult(Boolean(opts.json), report, () => {
        const e = report.enrichment;
        const lines = [
          `${report.firstName} ${report.lastName} <${report.email}>  (${report.customerId})`,
          `Enrichment: ${e.status}${e.score === null ? "" : `, score ${e.score}${e.threshold === null ? "" : ` vs threshold ${e.threshold}`}${e.vip ? " — VIP" : ""}`}`,
          ...(report.tier === null ? [] : [`Tier: ${report.tier}`]),
          ...(e.lastError ? [`Last error: ${e.lastError}`] : []),
          ...(report.verdict === null
            ? []
            : [
                `Verdict: ${VERDICT_LABELS[report.verdict.verdict]} (${report.verdict.source}${report.verdict.givenBy === null ? "" : `, ${report.verdict.givenBy}`}, ${report.verdict.givenAt})`,
              ]),
          ...(
            e.signals as Array<{ source: string; signal: string; value: unknown; points: number }>
          ).map(
            (s) =>
              `  ${s.points >= 0 ? "+" : ""}${s.points}  ${signalLabel(s.signal)}: ${formatSignalValue(s.signal, s.value as ScoreSignal["value"]) ?? "—"}`,
          ),
          `Orders: ${report.orders.length}`,
          ...report.orders.map(
            (o) =>
              `  ${o.number ?? o.externalId ?? o.orderId}  ${o.total === null ? "—" : formatMoney(o.total, o.currency)}  ${o.createdAt}`,
          ),
        ];
        return lines.join("\n");
      });
    });
}
