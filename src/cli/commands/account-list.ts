import type { Command } from "commander";
import { type AccountSummary, listAccounts } from "../../features/accounts/list-accounts.js";
import { invokedAs } from "../invoked-as.js";
import { printResult } from "../output.js";
import { renderTable } from "../table.js";
import { withDeps } from "../with-deps.js";

/** `velvet account list`: so a newcomer never has to dig for an account id. */
export function registerAccountList(account: Command): void {
  account
    .command("list")
    .description("every account: id, name, owner, created, VIP threshold")
    .option("--json", "print one JSON object")
    .action(async (opts: { json?: boolean }) => {
      const accounts = await withDeps((deps) => listAccounts(deps.db.kysely));
      printResult(Boolean(opts.json), { accounts }, () => table(accounts));
    });
}

function table(accounts: AccountSummary[]): string {
  if (accounts.length === 0)
    return `No accounts yet. Create one with \`${invokedAs()} account create\` or at /signup.`;
  const rows = accounts.map((a) => [
    a.accountId,
    a.closedAt === null ? a.name : `${a.name} (closed)`,
    a.owner ?? "(no log-in)",
    a.createdAt.slice(0, 10),
    String(a.vipThreshold),
  ]);
  return renderTable(["account id", "name", "owner", "created", "threshold"], rows);
}
