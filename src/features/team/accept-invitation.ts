/**
 * Accepting an invitation: the link is claimed by one conditional update (single use even when
 * opened twice at once), the password follows the sign-up rule, and the user is created with
 * the role they were invited with. A refused password leaves the link unused. An invitation
 * whose inviter left the team or can no longer grant its role is refused (inviter-rights.ts).
 */
import { newId } from "../../lib/ids.js";
import { hashPassword } from "../accounts/password.js";
import { passwordProblem } from "../accounts/password-rule.js";
import { userActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { hashOneTimeToken, isWellFormedToken } from "../security/one-time-token.js";
import { inviterStillGrants } from "./inviter-rights.js";
import { lockTeam } from "./lock-team.js";
import type { UserRole } from "./roles.js";
import type { TeamDeps } from "./team-deps.js";

export interface OpenInvitation {
  email: string;
  role: UserRole;
  accountName: string;
}

/** The invitation behind a link, or null when it is unknown, used, expired or its account closed. */
export async function findInvitation(
  deps: Pick<TeamDeps, "db" | "clock">,
  rawToken: string,
): Promise<OpenInvitation | null> {
  if (!isWellFormedToken(rawToken)) return null;
  const row = await deps.db.kysely
    .selectFrom("user_invitations")
    .innerJoin("accounts", "accounts.id", "user_invitations.account_id")
    .select(["user_invitations.email", "user_invitations.role", "accounts.name"])
    .where("user_invitations.token_hash", "=", hashOneTimeToken(rawToken))
    .where("user_invitations.used_at", "is", null)
    .where("user_invitations.expires_at", ">", deps.clock.now())
    .where("accounts.closed_at", "is", null)
    .executeTakeFirst();
  return row ? { email: row.email, role: row.role, accountName: row.name } : null;
}

export type AcceptResult =
  | { kind: "ok"; userId: string; accountId: string }
  | { kind: "invalid" }
  | { kind: "weak-password"; problem: string; invitation: OpenInvitation };

export async function acceptInvitation(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: { token: string; password: string },
): Promise<AcceptResult> {
  const invitation = await findInvitation(deps, input.token);
  if (!invitation) return { kind: "invalid" };
  const problem = passwordProblem(input.password, [invitation.email, invitation.accountName]);
  if (problem) return { kind: "weak-password", problem, invitation };
  const passwordHash = await hashPassword(input.password);
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx): Promise<AcceptResult> => {
    const claimed = await trx
      .updateTable("user_invitations")
      .set({ used_at: now })
      .where("token_hash", "=", hashOneTimeToken(input.token))
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning(["account_id", "email", "email_normalized", "role", "invited_by"])
      .executeTakeFirst();
    if (!claimed || !(await lockTeam(trx, claimed.account_id))) return { kind: "invalid" };
    // The link carries its inviter's right to grant the role: gone with them, it is spent.
    if (!(await inviterStillGrants(trx, claimed.account_id, claimed.invited_by, claimed.role)))
      return { kind: "invalid" };
    const taken = await trx
      .selectFrom("users")
      .select("id")
      .where("email_normalized", "=", claimed.email_normalized)
      .executeTakeFirst();
    // Someone made a log-in for the address since the invitation: the link is spent.
    if (taken) return { kind: "invalid" };
    const userId = newId(now);
    await trx
      .insertInto("users")
      .values({
        id: userId,
        account_id: claimed.account_id,
        email: claimed.email,
        email_normalized: claimed.email_normalized,
        password_hash: passwordHash,
        role: claimed.role,
        created_at: now,
      })
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: claimed.account_id,
        actor: userActor(claimed.email_normalized),
        action: "team.joined",
        subject: userId,
        details: { role: claimed.role },
      },
      now,
    );
    return { kind: "ok", userId, accountId: claimed.account_id };
  });
}
