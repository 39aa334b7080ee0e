/**
 * Inviting a colleague: a single-use link valid 7 days, only its hash stored. It is mailed when
 * SMTP is set (within INVITATION_MAIL_POLICY's limits), and always returned so the page can show it once to copy (self-hosted installs
 * often have no mail). Inviting the same address again replaces the earlier link.
 *
 * An admin may invite admins and members; only an owner (or the operator) may invite an owner,
 * or replace an owner invitation (roles.ts, mayGrant; judged on the roles read inside the team
 * lock). One e-mail address is one log-in in one account, so an address that already signs in to
 * Velvet cannot be invited.
 */
import { AppError } from "../../lib/app-error.js";
import { CONFIRMATION_MAIL_POLICY } from "../alerts/alert-email-confirmation.js";
import { subjectText } from "../alerts/subject-text.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { checkEmail, normalizeEmail } from "../orders/email-address.js";
import {
  reserveAuthAttempt,
  settleAuthAttempt,
  type ThrottlePolicy,
} from "../security/auth-throttle.js";
import { newOneTimeToken } from "../security/one-time-token.js";
import { cliInviter } from "./inviter-rights.js";
import { lockTeam } from "./lock-team.js";
import { pendingInvitation } from "./pending-invitation.js";
import { isRole, mayGrant, ROLE_LABELS, type UserRole } from "./roles.js";
import type { TeamActor } from "./team-actor.js";
import { authorityInLock } from "./team-authority.js";
import type { TeamDeps } from "./team-deps.js";
import { invitationUrl } from "./team-links.js";
import { sendTeamMail } from "./team-mail.js";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

/** Invitation mails: the alert-address confirmations' limits, on a budget of their own. */
export const INVITATION_MAIL_POLICY: ThrottlePolicy = {
  ...CONFIRMATION_MAIL_POLICY,
  action: "invitation-email",
};

export interface Invited {
  inviteUrl: string;
  emailed: boolean;
  /** Not mailed because the recipient or the account had too many invitation mails today. */
  mailThrottled: boolean;
  expiresAt: number;
}

export async function inviteMember(
  deps: TeamDeps,
  input: { accountId: string; accountName: string; email: string; role: string; actor: TeamActor },
): Promise<Invited> {
  const email = input.email.trim();
  if (checkEmail(email) === "invalid")
    throw new AppError(
      "bad_request",
      "Enter the colleague's e-mail address, like name@example.com.",
    );
  if (!isRole(input.role))
    throw new AppError("bad_request", "Choose a role: owner, admin or member.");
  const role: UserRole = input.role;
  const now = deps.clock.now();
  const token = newOneTimeToken();
  const normalized = normalizeEmail(email);
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (!(await lockTeam(trx, input.accountId)))
      throw new AppError("not_found", "No such open account.");
    const authority = await authorityInLock(trx, input.accountId, input.actor);
    if (!mayGrant(authority, role))
      throw new AppError("forbidden", "Only an owner can invite another owner.");
    const earlier = await pendingInvitation(trx, input.accountId, normalized, now);
    if (earlier && !mayGrant(authority, earlier.role))
      throw new AppError(
        "forbidden",
        "An owner invited this address as owner: only an owner can replace that invitation.",
      );
    const taken = await trx
      .selectFrom("users")
      .select("id")
      .where("email_normalized", "=", normalized)
      .executeTakeFirst();
    if (taken) throw new AppError("conflict", "This address already signs in to Velvet.");
    await trx
      .deleteFrom("user_invitations")
      .where("account_id", "=", input.accountId)
      .where("email_normalized", "=", normalized)
      .execute();
    await trx
      .insertInto("user_invitations")
      .values({
        token_hash: token.hash,
        account_id: input.accountId,
        email,
        email_normalized: normalized,
        role,
        invited_by: input.actor.userId ?? cliInviter(input.actor.audit.name),
        created_at: now,
        expires_at: now + INVITATION_TTL_MS,
        used_at: null,
      })
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor.audit,
        action: "team.invited",
        details: { email, role },
      },
      now,
    );
  });
  const inviteUrl = invitationUrl(deps.config.publicBaseUrl, token.raw);
  const mail = await mailInvitation(deps, {
    accountId: input.accountId,
    accountName: input.accountName,
    email,
    role,
    inviter: input.actor.audit.name,
    url: inviteUrl,
  });
  return { inviteUrl, ...mail, expiresAt: now + INVITATION_TTL_MS };
}

/**
 * Mails the link, throttled per recipient and per account like alert-address confirmations
 * (a team page must not become a way to mail strangers), with the store's name, which whoever
 * signed up chose, shortened and stripped of links as in every mail Velvet sends for an account.
 */
async function mailInvitation(
  deps: TeamDeps,
  m: {
    accountId: string;
    accountName: string;
    email: string;
    role: UserRole;
    inviter: string;
    url: string;
  },
): Promise<{ emailed: boolean; mailThrottled: boolean }> {
  if (!deps.alerts.emailEnabled) return { emailed: false, mailThrottled: false };
  const db = deps.db.kysely;
  const reservation = await reserveAuthAttempt(
    db,
    INVITATION_MAIL_POLICY,
    { email: normalizeEmail(m.email), ip: `account:${m.accountId}` },
    deps.clock.now(),
  );
  if (reservation.kind === "throttled") return { emailed: false, mailThrottled: true };
  try {
    const store = subjectText(m.accountName, 40);
    const emailed = await sendTeamMail(deps, {
      to: m.email,
      subject: store ? `You are invited to ${store} on Velvet` : "You are invited to Velvet",
      paragraphs: [
        `${m.inviter} invited you to join the Velvet account of "${subjectText(m.accountName, 60) || "a store"}" as ${ROLE_LABELS[m.role].toLowerCase()}.`,
        "Open the link to choose your password. It works once and stops working after 7 days. If you do not know this store, ignore this message.",
      ],
      link: { url: m.url, label: "Accept the invitation" },
    });
    return { emailed, mailThrottled: false };
  } finally {
    await settleAuthAttempt(db, reservation, "succeeded");
  }
}
