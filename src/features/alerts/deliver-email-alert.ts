/**
 * The `deliver-email-alert` task: one alert e-mailed to the account's alert addresses. In a
 * process without SMTP_URL it waits instead (wait-for-mail.ts).
 */
import type { Deps } from "../../deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import type { MetricsDeps } from "../metrics/metrics.js";
import type { AlertDelivery } from "./alert-deps.js";
import { CONFIRM_LINK_TTL_MS } from "./alert-email-confirmation.js";
import { ALERT_BACKOFF, ALERT_TASKS, type AlertJobPayload } from "./alert-job.js";
import { buildAlertEmail } from "./build-alert-email.js";
import { type ChannelDriver, deliverAlert } from "./deliver-alert.js";
import { markAlertFailed } from "./record-delivery-attempt.js";
import { requeueFailedAlert } from "./requeue-failed-alert.js";
import { waitForMail, wakeWaitingEmailAlerts } from "./wait-for-mail.js";

export function emailDriver(delivery: AlertDelivery): ChannelDriver {
  return {
    channel: "email",
    target: (alert) => (alert.alertEmails.length > 0 ? alert.alertEmails.join(", ") : null),
    // Only confirmed addresses receive alerts; one still awaiting confirmation keeps the alert
    // waiting for as long as its link is valid.
    waitFor: (alert) =>
      alert.awaitingEmails.length > 0
        ? {
            reason:
              "Waiting for an alert address to be confirmed: it is sent as soon as one is (it waits up to 7 days).",
            until: alert.createdAt + CONFIRM_LINK_TTL_MS,
          }
        : null,
    send: (alert, deps) =>
      delivery.sendMail(
        buildAlertEmail(alert.content, {
          from: deps.config.alerts.from,
          to: alert.alertEmails,
          messageId: alert.messageId,
        }),
      ),
  };
}

export function deliverEmailAlert(
  delivery: AlertDelivery,
): TaskDefinition<AlertJobPayload, Deps & MetricsDeps> {
  const driver = emailDriver(delivery);
  return {
    ...ALERT_TASKS.email,
    backoff: ALERT_BACKOFF,
    handle: (deps, payload, ctx) =>
      delivery.emailEnabled
        ? deliverAlert(deps, driver, payload.alertId, ctx)
        : waitForMail(deps, payload.alertId),
    ...(delivery.emailEnabled
      ? { onWorkerStart: async (deps) => void (await wakeWaitingEmailAlerts(deps)) }
      : {}),
    onGiveUp: (deps, payload, error) => markAlertFailed(deps.db.kysely, payload.alertId, error),
    onRetry: (trx, payload) => requeueFailedAlert(trx, payload.alertId),
  };
}
