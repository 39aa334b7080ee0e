import type { Command } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { issueApiKey } from "../../features/api-keys/issue-api-key.js";
import { findApiKey, listApiKeys } from "../../features/api-keys/list-api-keys.js";
import { revokeApiKey } from "../../features/api-keys/revoke-api-key.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printDryRun, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { renderTable } from "../table.js";
import { withDeps } from "../with-deps.js";

export function registerKey(program: Command): void {
  const key = program.command("key").description("manage API keys");

  key
    .command("create")
    .description("create an API key for the account's store (shown once)")
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; json?: boolean }) => {
      const created = await withDeps(async (deps) => {
        const account = await getAccount(deps, opts.account);
        if (!account) throw new CliError(`No account ${opts.account}`);
        if (account.closedAt !== null) throw new CliError(`Account ${opts.account} is closed`);
        return issueApiKey(
          deps.db.kysely,
          { accountId: account.accountId, storeId: account.storeId, actor: commandActor() },
          deps.clock.now(),
        );
      });
      printResult(
        Boolean(opts.json),
        created,
        () => `Key ${created.keyId}: ${created.apiKey}\n(shown once, keep it secret)`,
      );
    });

  key
    .command("revoke")
    .description("revoke an API key; it is refused from the next request on")
    // Parsed by commander so a bad id is reported; an InvalidArgumentError thrown inside the
    // action would reach run() as an already-printed CommanderError and exit without a word.
    .argument("<keyId>", "the key id", parseId)
    .option("--yes", "revoke (without it: say which key would be revoked and change nothing)")
    .option("--json", "print one JSON object")
    .action(async (id: string, opts: { json?: boolean; yes?: boolean }) => {
      if (!opts.yes) {
        const found = await withDeps((deps) => findApiKey(deps.db.kysely, id));
        if (!found) throw new CliError(`No API key ${id}`);
        printDryRun(
          Boolean(opts.json),
          { keyId: id, accountId: found.accountId, key: found.display, status: found.status },
          found.status === "revoked"
            ? `Key ${id} (${found.display}) is already revoked.`
            : `Would revoke key ${id} (${found.display}) of account ${found.accountId}, last used ${found.lastUsedAt ?? "never"}: every request with it is refused from then on.`,
          "revoke it; this cannot be undone",
        );
        return;
      }
      const result = await withDeps((deps) =>
        revokeApiKey(deps.db.kysely, id, deps.clock.now(), undefined, commandActor()),
      );
      if (result === "not_found") throw new CliError(`No API key ${id}`);
      printResult(
        Boolean(opts.json),
        { keyId: id, revoked: true, alreadyRevoked: result === "already_revoked" },
        () => (result === "revoked" ? `Key ${id} revoked.` : `Key ${id} was already revoked.`),
      );
    });

  key
    .command("list")
    .description("list the account's API keys")
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; json?: boolean }) => {
      const keys = await withDeps(async (deps) => {
        if (!(await getAccount(deps, opts.account)))
          throw new CliError(`No account ${opts.account}`);
        return listApiKeys(deps.db.kysely, opts.account);
      });
      printResult(Boolean(opts.json), { keys }, () =>
        keys.length === 0
          ? "No keys."
          : renderTable(
              ["key id", "key", "status", "created", "last used"],
              keys.map((k) => [k.keyId, k.display, k.status, k.createdAt, k.lastUsedAt ?? "never"]),
            ),
      );
    });
}
