import { type Command, InvalidArgumentError } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { type AlertView, listAlerts } from "../../features/alerts/list-alerts.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 1000)
    throw new InvalidArgumentError("the limit is a whole number from 1 to 1000");
  return n;
}

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
        const account = await getAccount(deps.db.kysely, opts.account);
        if (!account) throw new CliError(`No account ${opts.account}`);
        const list = await listAlerts(deps.db.kysely, opts.account, { limit: opts.limit });
        // Only what the database says: this command's own environment (SMTP_URL or not) is not
        // the server's. An e-mail alert no server could send yet is listed as `waiting`.
        return {
          alerts: list,
          channels: {
            chat: account.slackWebhook === null ? "not configured" : "configured",
            email: account.alertEmails.length === 0 ? "not configured" : "configured",
          },
        };
      });
      printResult(Boolean(opts.json), answer, () =>
        [
          `Chat: ${answer.channels.chat}. E-mail: ${answer.channels.email}.`,
          ...(answer.alerts.length === 0 ? ["No alerts."] : answer.alerts.map(describe)),
        ].join("\n"),
      );
    });
}

function describe(a: AlertView): string {
  const head = `${a.createdAt}  ${a.channel.padEnd(5)}  ${a.status.padEnd(9)}  ${a.customerEmail}  score ${a.score}/${a.threshold}  → ${a.target}${a.status === "waiting" && a.lastError ? `\n    ${a.lastError}` : ""}`;
  const tries = a.attempts.map(
    (t) =>
      `    ${t.at}  ${t.outcome}${t.statusCode === null ? "" : ` ${t.statusCode}`}  ${t.durationMs} ms${t.error ? `  ${t.error}` : ""}`,
  );
  return [head, ...tries].join("\n");
}
