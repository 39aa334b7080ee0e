/**
 * Alert addresses added in the dashboard are used only once their owner confirms them, so
 * Velvet cannot be made to mail strangers (no mail relay). Glossary:
 * - awaiting: a row in `alert_email_confirmations` (account, address, token hash, expiry). An
 *   address on the account's list without such a row is confirmed; addresses the operator sets
 *   with `velvet account set` are trusted as they are (updateAccount drops their rows).
 * - link: single use, valid 7 days; "send again" issues a new one.
 * - mails are throttled per recipient and per account (security/auth-throttle.ts), so editing
 *   the list over and over cannot flood an address with confirmation requests.
 */

import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { normalizeEmail } from "../orders/email-address.js";
import {
  reserveAuthAttempt,
  settleAuthAttempt,
  type ThrottlePolicy,
} from "../security/auth-throttle.js";
import {
  hashOneTimeToken,
  isWellFormedToken,
  newOneTimeToken,
} from "../security/one-time-token.js";
import type { AlertsDeps } from "./alert-deps.js";
import { EMAIL_ALERT_TASK } from "./channels/email/email-alert-task.js";
import { buildPlainEmail } from "./plain-email.js";
import { subjectText } from "./subject-text.js";

export const CONFIRM_LINK_TTL_MS = 7 * 24 * 3600_000;

/** Confirmation mails: 3 a day to one address from one account, 5 from all, 40 per account. */
export const CONFIRMATION_MAIL_POLICY: ThrottlePolicy = {
  action: "alert-email",
  windowMs: 24 * 3600_000,
  perEmailAndIp: 3,
  perIp: 40,
  perEmail: 5,
  delayAfter: null,
  countSuccesses: true,
  maxInFlightPerEmail: 1,
  maxInFlightPerIp: 4,
};

export interface PendingConfirmation {
  email: string;
  token: string;
}

/**
 * After a dashboard save (inside its transaction): `added` await confirmation, and rows of
 * addresses no longer on the list are dropped. Returns the links to mail once committed.
 */
export async function awaitConfirmation(
  trx: Kysely<Database>,
  accountId: string,
  list: string[],
  added: string[],
  now: number,
): Promise<PendingConfirmation[]> {
  const keep = list.map(normalizeEmail);
  let stale = trx.deleteFrom("alert_email_confirmations").where("account_id", "=", accountId);
  if (keep.length > 0) stale = stale.where("email_normalized", "not in", keep);
  await stale.execute();
  const pending: PendingConfirmation[] = [];
  for (const email of added) {
    const token = newOneTimeToken();
    const inserted = await trx
      .insertInto("alert_email_confirmations")
      .values({
        account_id: accountId,
        email_normalized: normalizeEmail(email),
        email,
        token_hash: token.hash,
        expires_at: now + CONFIRM_LINK_TTL_MS,
        sent_at: now,
        created_at: now,
      })
      .onConflict((oc) => oc.columns(["account_id", "email_normalized"]).doNothing())
      .returning("email")
      .executeTakeFirst();
    if (inserted) pending.push({ email, token: token.raw });
  }
  return pending;
}

/** "Send again": a fresh link (the old one stops working); null if the address is not awaiting. */
export async function renewConfirmation(
  db: Kysely<Database>,
  accountId: string,
  email: string,
  now: number,
): Promise<PendingConfirmation | null> {
  const token = newOneTimeToken();
  const row = await db
    .updateTable("alert_email_confirmations")
    .set({ token_hash: token.hash, expires_at: now + CONFIRM_LINK_TTL_MS, sent_at: now })
    .where("account_id", "=", accountId)
    .where("email_normalized", "=", normalizeEmail(email))
    .returning("email")
    .executeTakeFirst();
  return row ? { email: row.email, token: token.raw } : null;
}

/** Mails one confirmation link; false when throttled or the mail could not be sent. */
export async function mailConfirmation(
  deps: Pick<Deps, "db" | "clock" | "config" | "log"> & AlertsDeps,
  accountId: string,
  storeName: string,
  pending: PendingConfirmation,
): Promise<boolean> {
  const db = deps.db.kysely;
  const reservation = await reserveAuthAttempt(
    db,
    CONFIRMATION_MAIL_POLICY,
    { email: normalizeEmail(pending.email), ip: `account:${accountId}` },
    deps.clock.now(),
  );
  if (reservation.kind === "throttled") return false;
  const store = subjectText(storeName, 60) || "a store";
  const message = buildPlainEmail({
    from: deps.config.alerts.from,
    to: pending.email,
    subject: "Confirm that you want Velvet VIP alerts at this address",
    paragraphs: [
      `The Velvet account of "${store}" asked to send its VIP customer alerts to this address.`,
      "Nothing is sent here until you confirm. If you do not know this store, ignore this message: the link stops working after 7 days.",
    ],
    link: {
      url: `${deps.config.publicBaseUrl}/alert-emails/confirm?token=${pending.token}`,
      label: "Confirm this address",
    },
  });
  const sent = await deps.alerts.sendMail(message);
  await settleAuthAttempt(db, reservation, "succeeded");
  if (sent.outcome === "delivered") return true;
  deps.log.error({ error: sent.error }, "alert address confirmation could not be sent");
  return false;
}

/**
 * Confirms the address behind a link, once, within 7 days, and wakes the account's e-mail
 * alerts that were waiting for a confirmed address.
 */
export async function confirmAlertEmail(
  deps: Pick<Deps, "db" | "clock" | "jobs">,
  rawToken: string,
): Promise<{ email: string } | null> {
  if (!isWellFormedToken(rawToken)) return null;
  const now = deps.clock.now();
  const db = deps.db.kysely;
  const row = await db
    .deleteFrom("alert_email_confirmations")
    .where("token_hash", "=", hashOneTimeToken(rawToken))
    .where("expires_at", ">", now)
    .returning(["account_id", "email"])
    .executeTakeFirst();
  if (!row) return null;
  const waiting = await db
    .selectFrom("alerts")
    .select("id")
    .where("account_id", "=", row.account_id)
    .where("channel", "=", "email")
    .where("status", "in", ["pending", "waiting"])
    .execute();
  if (waiting.length > 0) {
    await db
      .updateTable("jobs")
      .set({ run_at: now, updated_at: now })
      .where("task", "=", EMAIL_ALERT_TASK.task)
      .where(
        "job_key",
        "in",
        waiting.map((a) => `alert:${a.id}`),
      )
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]))
      .execute();
    deps.jobs.notify();
  }
  return { email: row.email };
}
