import type { Command } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { auditActionLabel } from "../../features/audit/audit-actions.js";
import { listAuditEvents } from "../../features/audit/list-audit-events.js";
import { plural } from "../../lib/plural.js";
import { CliError, printResult } from "../output.js";
import { parseId, parsePage } from "../parse.js";
import { withDeps } from "../with-deps.js";

export function registerAudit(program: Command): void {
  const audit = program.command("audit").description("the account's audit trail");
  audit
    .command("list")
    .description("who did what and when, newest first")
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--page <n>", "page number (50 events a page)", parsePage)
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; page?: number; json?: boolean }) => {
      const page = await withDeps(async (deps) => {
        if (!(await getAccount(deps, opts.account)))
          throw new CliError(`No account ${opts.account}`);
        return listAuditEvents(deps.db.kysely, opts.account, { page: opts.page });
      });
      printResult(Boolean(opts.json), page, () =>
        page.events.length === 0
          ? "No events."
          : [
              ...page.events.map(
                (e) =>
                  `${e.occurredAt}  ${e.actorKind}:${e.actor}  ${auditActionLabel(e.action)}${e.subject ? `  ${e.subject}` : ""}${e.details ? `  ${JSON.stringify(e.details)}` : ""}`,
              ),
              `Page ${page.page} of ${Math.max(1, Math.ceil(page.total / page.pageSize))} (${plural(page.total, "event")})`,
            ].join("\n"),
      );
    });
}
