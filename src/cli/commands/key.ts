import type { Command } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { issueApiKey } from "../../features/api-keys/issue-api-key.js";
import { listApiKeys } from "../../features/api-keys/list-api-keys.js";
import { revokeApiKey } from "../../features/api-keys/revoke-api-key.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
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
        const account = await getAccount(deps.db.kysely, opts.account);
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
    .option("--json", "print one JSON object")
    .action(async (id: string, opts: { json?: boolean }) => {
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
        if (!(await getAccount(deps.db.kysely, opts.account)))
          throw new CliError(`No account ${opts.account}`);
        return listApiKeys(deps.db.kysely, opts.account);
      });
      printResult(Boolean(opts.json), { keys }, () =>
        keys.length === 0
          ? "No keys."
          : keys
              .map(
                (k) =>
                  `${k.keyId}  ${k.display}  ${k.status}  created ${k.createdAt}  last used ${k.lastUsedAt ?? "never"}`,
              )
              .join("\n"),
      );
    });
}
