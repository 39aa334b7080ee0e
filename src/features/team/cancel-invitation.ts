/**
 * Cancelling a pending invitation (Settings → Team, `velvet user cancel-invitation`): its link
 * stops working at once. Only someone who may grant the invitation's role may cancel it (an
 * admin never an owner invitation), judged on the roles as they are inside the team lock.
 */
import { AppError } from "../../lib/app-error.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { normalizeEmail } from "../orders/email-address.js";
import { lockTeam } from "./lock-team.js";
import { pendingInvitation } from "./pending-invitation.js";
import { mayGrant, type UserRole } from "./roles.js";
import type { TeamActor } from "./team-actor.js";
import { authorityInLock } from "./team-authority.js";
import type { TeamDeps } from "./team-deps.js";

export async function cancelInvitation(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: { accountId: string; email: string; actor: TeamActor },
): Promise<{ email: string; role: UserRole }> {
  const normalized = normalizeEmail(input.email.trim());
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    if (!(await lockTeam(trx, input.accountId)))
      throw new AppError("not_found", "No such open account.");
    const authority = await authorityInLock(trx, input.accountId, input.actor);
    const pending = await pendingInvitation(trx, input.accountId, normalized, now);
    if (!pending) throw new AppError("not_found", "No invitation is waiting for this address.");
    if (!mayGrant(authority, pending.role))
      throw new AppError("forbidden", "Only an owner can cancel an owner invitation.");
    await trx
      .deleteFrom("user_invitations")
      .where("account_id", "=", input.accountId)
      .where("email_normalized", "=", normalized)
      .where("used_at", "is", null)
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor.audit,
        action: "team.invitation_cancelled",
        details: { email: pending.email, role: pending.role },
      },
      now,
    );
    return { email: pending.email, role: pending.role };
  });
}
