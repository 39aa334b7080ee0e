/**
 * Password reset. Glossary:
 * - request: "Forgot password?" with an e-mail. Throttled like log-ins (security/auth-throttle.ts,
 *   RESET_POLICY), except from a device the user signed in on, which has a budget of its own
 *   (RESET_DEVICE_POLICY) so that requests from elsewhere cannot block it; answered the same way and after the same time whether or not a user has
 *   the address: the lookup and a token are always made, the mail is sent after the answer
 *   (its SMTP round trip never shows in the timing), and the answer is padded to
 *   RESET_ANSWER_MS. Audited with the visitor's address as the actor (whoever typed an e-mail is
 *   not known to be its owner). Without SMTP no link is made (none could be sent): the request
 *   is logged for the operator, who prints a link with `velvet user reset-password`.
 * - link: single use, valid 1 hour (RESET_TTL_MS), only its SHA-256 stored; using it sets the
 *   new password (the sign-up rule), ends every session of the user and voids their other links.
 * - issued link: the operator's `velvet user reset-password` (1 hour) and `velvet user add`
 *   (7 days, the new user's first password) print one instead of mailing it.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { AppError } from "../../lib/app-error.js";
import { hashPassword } from "../accounts/password.js";
import { passwordProblem } from "../accounts/password-rule.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { userActor, visitorActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { normalizeEmail } from "../orders/email-address.js";
import {
  LOGIN_POLICY,
  reserveAuthAttempt,
  settleAuthAttempt,
  type ThrottlePolicy,
} from "../security/auth-throttle.js";
import { knownDeviceFor } from "../security/known-device.js";
import {
  hashOneTimeToken,
  isWellFormedToken,
  newOneTimeToken,
} from "../security/one-time-token.js";
import { insertResetLink, storeNewPassword } from "./store-new-password.js";
import type { TeamDeps } from "./team-deps.js";
import { resetUrl } from "./team-links.js";
import { sendTeamMail } from "./team-mail.js";

export const RESET_TTL_MS = 3600_000;
/** Every reset request is answered no sooner than this after it arrived. */
export const RESET_ANSWER_MS = 400;

/** The log-in limits; each request counts (it may send a mail), and 5 per address from anywhere. */
export const RESET_POLICY: ThrottlePolicy = {
  ...LOGIN_POLICY,
  action: "password-reset",
  perEmail: 5,
  delayAfter: null,
  countSuccesses: true,
};

/**
 * Requests from a device the user signed in on (security/known-device.ts): a budget of their own
 * per device, and per address across the user's devices, that no stranger can spend. Mail to
 * one address is thus capped at RESET_POLICY.perEmail + RESET_DEVICE_POLICY.perEmail a window.
 */
export const RESET_DEVICE_POLICY: ThrottlePolicy = {
  ...RESET_POLICY,
  action: "password-reset-device",
  perEmailAndIp: 3,
  perIp: 3,
  perEmail: 5,
  maxInFlightPerEmail: 1,
  maxInFlightPerIp: 1,
};

/** `mailed`: whether this server can send the link at all (SMTP), the same for every address. */
export type ResetRequestResult =
  | { kind: "done"; mailed: boolean }
  | { kind: "throttled"; retryAfterMs: number };

export async function requestPasswordReset(
  deps: TeamDeps,
  input: { email: string; ip: string; deviceToken?: string },
): Promise<ResetRequestResult> {
  const started = performance.now();
  const db = deps.db.kysely;
  const email = normalizeEmail(input.email).slice(0, 320);
  const now = deps.clock.now();
  const device = await knownDeviceFor(db, input.deviceToken, email, now);
  const reservation = device
    ? await reserveAuthAttempt(db, RESET_DEVICE_POLICY, { email, ip: `device:${device}` }, now)
    : await reserveAuthAttempt(db, RESET_POLICY, { email, ip: input.ip }, now);
  if (reservation.kind === "throttled") return reservation;
  try {
    const token = newOneTimeToken();
    const user = await db
      .selectFrom("users")
      .innerJoin("accounts", "accounts.id", "users.account_id")
      .select(["users.id", "users.email", "users.account_id"])
      .where("users.email_normalized", "=", email)
      .where("accounts.closed_at", "is", null)
      .executeTakeFirst();
    const mailed = deps.alerts.emailEnabled;
    if (!mailed) {
      deps.log.warn(
        { email, knownUser: user !== undefined, ip: input.ip },
        "password reset asked for, but this server has no SMTP_URL: no link was sent; give one with `velvet user reset-password --email <email>`",
      );
    }
    if (user) {
      await db.transaction().execute(async (trx) => {
        if (mailed)
          await insertResetLink(trx, {
            userId: user.id,
            tokenHash: token.hash,
            now,
            expiresAt: now + RESET_TTL_MS,
          });
        await recordAuditEvent(
          trx,
          {
            accountId: user.account_id,
            actor: visitorActor(input.ip),
            action: "user.password_reset_requested",
            subject: user.id,
            details: { ip: input.ip, linkSent: mailed },
          },
          now,
        );
      });
    }
    if (user && mailed) {
      // Sent after the answer: how long the mail server takes must not tell who has an account.
      void sendTeamMail(deps, {
        to: user.email,
        subject: "Reset your Velvet password",
        paragraphs: [
          "Someone, hopefully you, asked to reset the password of your Velvet log-in.",
          "Open the link within an hour to choose a new one; it works once, and signs you out everywhere. If you did not ask, ignore this message: your password stays as it is.",
        ],
        link: {
          url: resetUrl(deps.config.publicBaseUrl, token.raw),
          label: "Choose a new password",
        },
      }).catch((error: unknown) => deps.log.error({ err: error }, "reset e-mail failed"));
    }
  } finally {
    await settleAuthAttempt(db, reservation, "succeeded");
  }
  const left = RESET_ANSWER_MS - (performance.now() - started);
  if (left > 0) await sleep(left);
  return { kind: "done", mailed: deps.alerts.emailEnabled };
}

/** The operator's link for a user (CLI): 1 hour, or `ttlMs` for a new user's first password. */
export async function issueResetLink(
  deps: Pick<TeamDeps, "db" | "clock" | "config">,
  input: { email: string; actor: AuditActor; ttlMs?: number },
): Promise<{ resetUrl: string; expiresAt: number; userId: string; accountId: string }> {
  const now = deps.clock.now();
  const token = newOneTimeToken();
  const expiresAt = now + (input.ttlMs ?? RESET_TTL_MS);
  return deps.db.kysely.transaction().execute(async (trx) => {
    const user = await trx
      .selectFrom("users")
      .select(["id", "account_id"])
      .where("email_normalized", "=", normalizeEmail(input.email))
      .executeTakeFirst();
    if (!user) throw new AppError("not_found", `No user with the e-mail ${input.email}`);
    await insertResetLink(trx, { userId: user.id, tokenHash: token.hash, now, expiresAt });
    await recordAuditEvent(
      trx,
      {
        accountId: user.account_id,
        actor: input.actor,
        action: "user.password_reset_link_issued",
        subject: user.id,
      },
      now,
    );
    return {
      resetUrl: resetUrl(deps.config.publicBaseUrl, token.raw),
      expiresAt,
      userId: user.id,
      accountId: user.account_id,
    };
  });
}

/** The e-mail a link is for, or null when it is unknown, used or expired. */
export async function findResetLink(
  deps: Pick<TeamDeps, "db" | "clock">,
  rawToken: string,
): Promise<{ email: string; hasPassword: boolean } | null> {
  if (!isWellFormedToken(rawToken)) return null;
  const row = await deps.db.kysely
    .selectFrom("password_resets")
    .innerJoin("users", "users.id", "password_resets.user_id")
    .select(["users.email", "users.password_hash"])
    .where("password_resets.token_hash", "=", hashOneTimeToken(rawToken))
    .where("password_resets.used_at", "is", null)
    .where("password_resets.expires_at", ">", deps.clock.now())
    .executeTakeFirst();
  return row ? { email: row.email, hasPassword: row.password_hash !== null } : null;
}

export type ResetResult =
  | { kind: "ok"; sessionsEnded: number }
  | { kind: "invalid" }
  | { kind: "weak"; problem: string; email: string };

export async function resetPassword(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: { token: string; password: string },
): Promise<ResetResult> {
  const link = await findResetLink(deps, input.token);
  if (!link) return { kind: "invalid" };
  const problem = passwordProblem(input.password, [link.email]);
  if (problem) return { kind: "weak", problem, email: link.email };
  const hash = await hashPassword(input.password);
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx): Promise<ResetResult> => {
    const claimed = await trx
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("token_hash", "=", hashOneTimeToken(input.token))
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("user_id")
      .executeTakeFirst();
    if (!claimed) return { kind: "invalid" };
    const user = await trx
      .selectFrom("users")
      .select(["account_id", "email_normalized"])
      .where("id", "=", claimed.user_id)
      .executeTakeFirstOrThrow();
    const sessionsEnded = await storeNewPassword(
      trx,
      {
        userId: claimed.user_id,
        accountId: user.account_id,
        passwordHash: hash,
        actor: userActor(user.email_normalized),
        action: "user.password_reset",
      },
      now,
    );
    return { kind: "ok", sessionsEnded };
  });
}
