import type { Command } from "commander";
import type { VerdictValue } from "../../db/schema.js";
import { getAccount } from "../../features/accounts/get-account.js";
import {
  CHANNELS,
  configuredChannels,
  readChannelValues,
} from "../../features/alerts/channels/channel-registry.js";
import { type AlertView, listAlerts } from "../../features/alerts/list-alerts.js";
import { verdictsOf } from "../../features/verdicts/list-verdicts.js";
import { getPrecision } from "../../features/verdicts/precision.js";
import { precisionLine, suggestionLine } from "../../features/verdicts/precision-text.js";
import { VERDICT_LABELS } from "../../features/verdicts/verdict-links.js";
import { CliError, printResult } from "../output.js";
import { parseId, parseLimit } from "../parse.js";
import { withDeps } from "../with-deps.js";

export function registerAlerts(program: Command): void {
  const alerts = program.command("alerts").description("VIP alerts and their delivery attempts");

  alerts
    .command("list")
    .description("the account's VIP alerts, newest first, with every delivery attempt")
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--limit <n>", "at most this many alerts (default 100)", parseLimit)
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; limit?: number; json?: boolean }) => {
      const answer = await withDeps(async (deps) => {
        const account = await getAccount(deps, opts.account);
        if (!account) throw new CliError(`No account ${opts.account}`);
        const listed = await listAlerts(deps.db.kysely, opts.account, { limit: opts.limit });
        // Each alert with the team's verdict on its customer (the latest; null: none given).
        const verdicts = await verdictsOf(
          deps.db.kysely,
          opts.account,
          listed.map((a) => a.customerId),
        );
        const list = listed.map((a) => ({
          ...a,
          verdict: verdicts.get(a.customerId)?.verdict ?? null,
        }));
        // Only what the database says: this command's own environment (SMTP_URL or not) is not
        // the server's. An e-mail alert no server could send yet is listed as `waiting`.
        const configured = configuredChannels(
          await readChannelValues(deps.db.kysely, opts.account, deps.config.storeSync.tokenKey),
        );
        const channels = Object.fromEntries(
          CHANNELS.map((c) => [c.name, configured[c.name] ? "configured" : "not configured"]),
        );
        return { alerts: list, channels };
      });
      printResult(Boolean(opts.json), answer, () =>
        [
          CHANNELS.map((c) => `${c.shortLabel}: ${answer.channels[c.name]}.`).join(" "),
          ...(answer.alerts.length === 0 ? ["No alerts."] : answer.alerts.map(describe)),
        ].join("\n"),
      );
    });

  registerPrecision(alerts);
}

/** `velvet alerts precision`: the numbers Settings → Alerts shows beside the threshold. */
function registerPrecision(alerts: Command): void {
  alerts
    .command("precision")
    .description(
      "precision of the last 90 days' VIPs at the current threshold, from the team's verdicts, and a suggested threshold",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; json?: boolean }) => {
      const p = await withDeps(async (deps) =>
        getPrecision(deps.db.kysely, opts.account, deps.clock.now()),
      );
      if (p === null) throw new CliError(`No account ${opts.account}`);
      const answer = {
        threshold: p.threshold,
        judged: p.judged,
        right: p.right,
        wrong: p.wrong,
        precision: p.precision,
        interval: p.interval,
        suggestedThreshold: p.suggestedThreshold,
      };
      printResult(Boolean(opts.json), answer, () =>
        [precisionLine(p), suggestionLine(p)].join("\n"),
      );
    });
}

function describe(a: AlertView & { verdict: VerdictValue | null }): string {
  const verdict = a.verdict === null ? "" : `  verdict: ${VERDICT_LABELS[a.verdict]}`;
  const head = `${a.createdAt}  ${a.channel.padEnd(5)}  ${a.status.padEnd(9)}  ${a.customerEmail}  score ${a.score}/${a.threshold}  → ${a.target}${verdict}${a.status === "waiting" && a.lastError ? `\n    ${a.lastError}` : ""}`;
  const tries = a.attempts.map(
    (t) =>
      `    ${t.at}  ${t.outcome}${t.statusCode === null ? "" : ` ${t.statusCode}`}  ${t.durationMs} ms${t.error ? `  ${t.error}` : ""}`,
  );
  return [head, ...tries].join("\n");
}
