/**
 * The operator's `velvet user add`: the user is created at once with the role given and no
 * password (they cannot sign in yet), and a set-password link valid 7 days is returned to hand
 * over. Unlike a dashboard invitation the person is on the team straight away (listed, removable).
 */
import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { checkEmail, normalizeEmail } from "../orders/email-address.js";
import { INVITATION_TTL_MS } from "./invite-member.js";
import { lockTeam } from "./lock-team.js";
import { issueResetLink } from "./password-reset.js";
import { isRole } from "./roles.js";
import type { TeamActor } from "./team-actor.js";
import type { TeamDeps } from "./team-deps.js";

export async function addUser(
  deps: Pick<TeamDeps, "db" | "clock" | "config">,
  input: { accountId: string; email: string; role: string; actor: TeamActor },
): Promise<{ userId: string; setPasswordUrl: string; expiresAt: number }> {
  const email = input.email.trim();
  if (checkEmail(email) === "invalid")
    throw new AppError("bad_request", `Not an e-mail address: ${email}`);
  if (!isRole(input.role)) throw new AppError("bad_request", "The role is owner, admin or member.");
  const role = input.role;
  const now = deps.clock.now();
  const userId = newId(now);
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (!(await lockTeam(trx, input.accountId)))
      throw new AppError("not_found", `No open account ${input.accountId}`);
    const taken = await trx
      .selectFrom("users")
      .select("id")
      .where("email_normalized", "=", normalizeEmail(email))
      .executeTakeFirst();
    if (taken) throw new AppError("conflict", `${email} already signs in to Velvet.`);
    await trx
      .insertInto("users")
      .values({
        id: userId,
        account_id: input.accountId,
        email,
        email_normalized: normalizeEmail(email),
        password_hash: null,
        role,
        created_at: now,
      })
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor.audit,
        action: "team.added",
        subject: userId,
        details: { email, role },
      },
      now,
    );
  });
  const link = await issueResetLink(deps, {
    email,
    actor: input.actor.audit,
    ttlMs: INVITATION_TTL_MS,
  });
  return { userId, setPasswordUrl: link.resetUrl, expiresAt: link.expiresAt };
}
