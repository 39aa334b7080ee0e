import type { Command } from "commander";
import { closeAccount } from "../../features/privacy/close-account.js";
import { eraseAccountCustomers } from "../../features/privacy/erase-account-customers.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

/** `velvet account delete`: close the account, then erase its customers before answering. */
export function registerAccountDelete(account: ReturnType<Command["command"]>): void {
  account
    .command("delete")
    .description(
      "close an account for good: revoke its keys, end its sessions, erase every customer (billing records stay)",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--yes", "confirm: this cannot be undone")
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; yes?: boolean; json?: boolean }) => {
      if (!opts.yes) {
        throw new CliError(
          "Closing an account erases all its customers and cannot be undone: add --yes to confirm",
        );
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
        sessionsEnded: closed.kind === "closed" ? closed.sessionsEnded : 0,
        customersErased: erased,
      };
      printResult(Boolean(opts.json), result, () =>
        result.alreadyClosed
          ? `Account ${opts.account} was already closed; ${erased} remaining customers erased.`
          : `Account ${opts.account} closed: ${result.keysRevoked} keys revoked, ${result.sessionsEnded} sessions ended, ${erased} customers erased. Billing records are kept.`,
      );
    });
}
