/**
 * An e-mail alert run by a process that cannot send mail (no SMTP_URL). The account set the
 * channel up, so the alert is not dropped: it is marked `waiting`, its job comes back later
 * without spending an attempt, and a process started with SMTP_URL wakes every waiting alert at
 * once (`wakeWaitingEmailAlerts`, run when its worker starts). Bounded: an alert still waiting
 * EMAIL_WAIT_LIMIT_MS after it was found fails, with that reason on the alert.
 */
import { sql } from "kysely";
import type { Deps } from "../../deps.js";
import type { JobOutcome } from "../../jobs/task.js";
import { EMAIL_ALERT_TASK } from "./channels/email/email-alert-task.js";
import { recordDeliveryAttempt } from "./record-delivery-attempt.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an e-mail alert waits for a server that can send mail before it fails. */
export const EMAIL_WAIT_LIMIT_MS = 7 * DAY_MS;
/** How often a waiting alert looks again on its own (a start with SMTP_URL does not wait for it). */
export const EMAIL_WAIT_RECHECK_MS = 10 * 60 * 1000;

export const WAITING_REASON =
  "Waiting for e-mail to be set up: the server that ran this alert has no SMTP_URL. It is sent as soon as Velvet runs with SMTP_URL (it waits up to 7 days).";
export const GAVE_UP_WAITING =
  "Not sent: no Velvet server with SMTP_URL ran within 7 days of this alert.";

export async function waitForMail(deps: Deps, alertId: string): Promise<JobOutcome> {
  const db = deps.db.kysely;
  const alert = await db
    .selectFrom("alerts")
    .select(["status", "created_at"])
    .where("id", "=", alertId)
    .executeTakeFirst();
  if (alert === undefined) return { kind: "fail", error: `alert ${alertId} does not exist` };
  if (alert.status === "delivered") return { kind: "done" };
  const now = deps.clock.now();
  if (now - alert.created_at >= EMAIL_WAIT_LIMIT_MS) {
    await recordDeliveryAttempt(db, alertId, {
      at: now,
      outcome: "failed",
      statusCode: null,
      error: GAVE_UP_WAITING,
      durationMs: 0,
      target: null,
    });
    return { kind: "fail", error: GAVE_UP_WAITING };
  }
  await db
    .updateTable("alerts")
    .set({ status: "waiting", last_error: WAITING_REASON })
    .where("id", "=", alertId)
    .where("status", "in", ["pending", "waiting"])
    .execute();
  return { kind: "wait", reason: WAITING_REASON, delayMs: EMAIL_WAIT_RECHECK_MS };
}

/** Makes every waiting e-mail alert's job due now: this process can send mail. */
export async function wakeWaitingEmailAlerts(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const result = await deps.db.kysely
    .updateTable("jobs")
    .set({ run_at: now, updated_at: now })
    .where("task", "=", EMAIL_ALERT_TASK.task)
    .where("locked_by", "is", null)
    .where("run_at", ">", now)
    .where(
      "job_key",
      "in",
      deps.db.kysely
        .selectFrom("alerts")
        .select(sql<string>`'alert:' || alerts.id`.as("job_key"))
        .where("alerts.status", "=", "waiting")
        .where("alerts.channel", "=", "email"),
    )
    .executeTakeFirst();
  const woken = Number(result.numUpdatedRows);
  if (woken > 0) deps.log.info({ alerts: woken }, "e-mail alerts that waited for SMTP are due now");
  return woken;
}
