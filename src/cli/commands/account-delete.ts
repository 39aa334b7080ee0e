import type { Command } from "commander";
import { closeAccount } from "../../features/privacy/close-account.js";
import { eraseAccountCustomers } from "../../features/privacy/erase-account-customers.js";
import { previewAccountClosing } from "../../features/privacy/preview-erasure.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printDryRun, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

/** `velvet account delete`: close the account, then erase its customers before answering. */
export function registerAccountDelete(account: ReturnType<Command["command"]>): void {
  account
    .command("delete")
    .description(
      "close an account for good: revoke its keys, disconnect its stores, end its sessions, erase every customer (billing records stay)",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--yes", "close it (without it: say what would go and change nothing)")
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; yes?: boolean; json?: boolean }) => {
      if (!opts.yes) {
        const preview = await withDeps((deps) =>
          previewAccountClosing(deps.db.kysely, opts.account),
        );
        if (preview.kind === "not_found") throw new CliError(`No account ${opts.account}`);
        const { kind: _, ...counts } = preview;
        printDryRun(
          Boolean(opts.json),
          { accountId: opts.account, alreadyClosed: preview.kind === "already_closed", ...counts },
          preview.kind === "already_closed"
            ? `Account ${opts.account} is already closed; --yes finishes erasing any customers left.`
            : `Would close account ${opts.account} (${preview.name}): revoke ${plural(preview.activeKeys, "API key")}, disconnect ${plural(preview.stores, "store")}, end ${plural(preview.sessions, "session")}, remove ${plural(preview.users, "log-in")} and erase ${plural(preview.customers, "customer")}. Billing records and the audit trail are kept.`,
          "close it; this cannot be undone",
        );
        return;
      }
      const outcome = await withDeps(async (deps) => {
        const closed = await closeAccount(deps, { accountId: opts.account, actor: commandActor() });
        if (closed.kind === "not_found") throw new CliError(`No account ${opts.account}`);
        // Already closed: finish an erasure a crash may have interrupted, and say so.
        let erased = 0;
        for (;;) {
          const batch = await eraseAccountCustomers(deps, opts.account);
          erased += batch.erased;
          if (!batch.more) break;
        }
        return { closed, erased };
      });
      const { closed, erased } = outcome;
      const result = {
        accountId: opts.account,
        closed: true,
        alreadyClosed: closed.kind === "already_closed",
        keysRevoked: closed.kind === "closed" ? closed.keysRevoked : 0,
        storesDisconnected: closed.kind === "closed" ? closed.storesDisconnected : 0,
        sessionsEnded: closed.kind === "closed" ? closed.sessionsEnded : 0,
        customersErased: erased,
      };
      printResult(Boolean(opts.json), result, () =>
        result.alreadyClosed
          ? `Account ${opts.account} was already closed; ${plural(erased, "remaining customer")} erased.`
          : `Account ${opts.account} closed: ${plural(result.keysRevoked, "key")} revoked, ${plural(result.storesDisconnected, "store")} disconnected, ${plural(result.sessionsEnded, "session")} ended, ${plural(erased, "customer")} erased. Billing records are kept.`,
      );
    });
}
