/** `velvet customer verdict`: the operator records whether a VIP is right, as the dashboard does. */
import type { Command } from "commander";
import { InvalidArgumentError } from "commander";
import { getAccount } from "../../features/accounts/get-account.js";
import { findAccountCustomerId } from "../../features/privacy/find-account-customer.js";
import { NOT_A_VIP_MESSAGE, recordVerdict } from "../../features/verdicts/record-verdict.js";
import { VERDICT_LABELS } from "../../features/verdicts/verdict-links.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

function parseVip(value: string): "right" | "wrong" {
  if (value === "yes") return "right";
  if (value === "no") return "wrong";
  throw new InvalidArgumentError('say "yes" (the VIP is right) or "no" (not a VIP)');
}

export function registerCustomerVerdict(customer: ReturnType<Command["command"]>): void {
  customer
    .command("verdict")
    .description("say whether a VIP is right (yes) or not a VIP (no); the latest verdict counts")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "the customer's e-mail address")
    .requiredOption("--vip <yes|no>", "yes: the VIP is right; no: not a VIP", parseVip)
    .option("--json", "print one JSON object")
    .action(
      async (opts: { account: string; email: string; vip: "right" | "wrong"; json?: boolean }) => {
        const outcome = await withDeps(async (deps) => {
          if (!(await getAccount(deps, opts.account)))
            throw new CliError(`No account ${opts.account}`);
          const customerId = await findAccountCustomerId(deps.db.kysely, opts.account, {
            email: opts.email,
          });
          if (customerId === null) return { kind: "not_found" as const };
          return recordVerdict(
            deps.db.kysely,
            {
              accountId: opts.account,
              customerId,
              verdict: opts.vip,
              source: "cli",
              givenBy: null,
              actor: commandActor(),
            },
            deps.clock.now(),
          );
        });
        if (outcome.kind === "not_found")
          throw new CliError(`No customer ${opts.email} in account ${opts.account}`);
        if (outcome.kind === "not_vip") throw new CliError(NOT_A_VIP_MESSAGE);
        const answer = {
          customerId: outcome.customerId,
          verdict: outcome.verdict,
          givenAt: new Date(outcome.givenAt).toISOString(),
        };
        printResult(
          Boolean(opts.json),
          answer,
          () =>
            `Recorded for ${opts.email} (${answer.customerId}): ${VERDICT_LABELS[answer.verdict]}.`,
        );
      },
    );
}
