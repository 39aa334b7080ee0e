import type { Command } from "commander";
import { loadConfig } from "../../config.js";
import { getAccount } from "../../features/accounts/get-account.js";
import { addUser } from "../../features/team/add-user.js";
import { cancelInvitation } from "../../features/team/cancel-invitation.js";
import { listTeam } from "../../features/team/list-team.js";
import { previewRemoveMember, removeMember } from "../../features/team/manage-member.js";
import { issueResetLink } from "../../features/team/password-reset.js";
import type { TeamActor } from "../../features/team/team-actor.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { linkBaseNote } from "../link-base.js";
import { CliError, printDryRun, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { renderTable } from "../table.js";
import { withDeps } from "../with-deps.js";

function operator(): TeamActor {
  return { audit: commandActor(), authority: "operator", userId: null };
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export function registerUser(program: Command): void {
  const user = program.command("user").description("an account's team: log-ins and roles");

  user
    .command("list")
    .description("the account's members (role, last sign-in) and pending invitations")
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; json?: boolean }) => {
      const team = await withDeps(
        async (deps) => {
          if (!(await getAccount(deps, opts.account)))
            throw new CliError(`No account ${opts.account}`);
          return listTeam(deps.db.kysely, opts.account, deps.clock.now());
        },
        { providers: false },
      );
      const result = {
        users: team.members.map((m) => ({
          userId: m.userId,
          email: m.email,
          role: m.role,
          lastSignInAt: iso(m.lastSignInAt),
          hasPassword: m.hasPassword,
          createdAt: iso(m.createdAt),
        })),
        invitations: team.invitations.map((i) => ({
          email: i.email,
          role: i.role,
          expiresAt: iso(i.expiresAt),
        })),
      };
      printResult(Boolean(opts.json), result, () =>
        result.users.length + result.invitations.length === 0
          ? "No users."
          : renderTable(
              ["e-mail", "role", "state", "last sign-in"],
              [
                ...result.users.map((u) => [
                  u.email,
                  u.role,
                  u.hasPassword ? "active" : "no password yet",
                  u.lastSignInAt ?? "never",
                ]),
                ...result.invitations.map((i) => [
                  i.email,
                  i.role,
                  `invited, link expires ${i.expiresAt}`,
                  "-",
                ]),
              ],
            ),
      );
    });

  user
    .command("add")
    .description("add a user with a role and print a one-time set-password link (7 days)")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "their e-mail address")
    .requiredOption("--role <role>", "owner, admin or member")
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; email: string; role: string; json?: boolean }) => {
      const added = await withDeps(
        (deps) =>
          addUser(deps, {
            accountId: opts.account,
            email: opts.email,
            role: opts.role,
            actor: operator(),
          }),
        { providers: false },
      );
      const result = { ...added, expiresAt: iso(added.expiresAt) };
      printResult(Boolean(opts.json), result, () =>
        [
          `Added ${opts.email} as ${opts.role}. Send them this link to choose a password (works once, until ${result.expiresAt}):`,
          added.setPasswordUrl,
          ...linkBaseNote(loadConfig()),
        ].join("\n"),
      );
    });

  user
    .command("remove")
    .description("remove a user from the account (signed out at once); never the last owner")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "their e-mail address")
    .option("--yes", "remove (without it: say what would happen and change nothing)")
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; email: string; json?: boolean; yes?: boolean }) => {
      const input = { accountId: opts.account, member: { email: opts.email }, actor: operator() };
      if (!opts.yes) {
        const would = await withDeps((deps) => previewRemoveMember(deps, input), {
          providers: false,
        });
        printDryRun(
          Boolean(opts.json),
          { wouldRemove: would.email, role: would.role, sessionsEnded: would.sessionsEnded },
          `Would remove ${would.email} (${would.role}) from account ${opts.account} and end ${plural(would.sessionsEnded, "session")}.`,
          "remove them",
        );
        return;
      }
      const removed = await withDeps(
        (deps) =>
          removeMember(deps, {
            accountId: opts.account,
            member: { email: opts.email },
            actor: operator(),
          }),
        { providers: false },
      );
      printResult(
        Boolean(opts.json),
        { removed: removed.email, sessionsEnded: removed.sessionsEnded },
        () => `Removed ${removed.email} (${plural(removed.sessionsEnded, "session")} ended).`,
      );
    });

  user
    .command("cancel-invitation")
    .description("cancel a pending invitation: its link stops working at once")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--email <email>", "the invited e-mail address")
    .option("--json", "print one JSON object")
    .action(async (opts: { account: string; email: string; json?: boolean }) => {
      const cancelled = await withDeps(
        (deps) =>
          cancelInvitation(deps, {
            accountId: opts.account,
            email: opts.email,
            actor: operator(),
          }),
        { providers: false },
      );
      printResult(
        Boolean(opts.json),
        { cancelled: cancelled.email, role: cancelled.role },
        () => `Cancelled the invitation of ${cancelled.email} (${cancelled.role}).`,
      );
    });

  user
    .command("reset-password")
    .description("print a one-time link (1 hour) for the user to choose a new password")
    .requiredOption("--email <email>", "their e-mail address")
    .option("--json", "print one JSON object")
    .action(async (opts: { email: string; json?: boolean }) => {
      const link = await withDeps(
        (deps) => issueResetLink(deps, { email: opts.email, actor: commandActor() }),
        { providers: false },
      );
      printResult(
        Boolean(opts.json),
        { resetUrl: link.resetUrl, expiresAt: iso(link.expiresAt) },
        () =>
          [
            `Send ${opts.email} this link to choose a new password (works once, for one hour; their sessions end when it is used):`,
            link.resetUrl,
            ...linkBaseNote(loadConfig()),
          ].join("\n"),
      );
    });
}
