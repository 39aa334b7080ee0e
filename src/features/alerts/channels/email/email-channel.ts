/**
 * The e-mail channel: alerts to a list of addresses, each confirmed by its owner first
 * (alert-email-confirmation.ts). Sent over the process's SMTP pool (send-mail.ts); in a process
 * without SMTP_URL an alert waits instead (wait-for-mail.ts).
 */
import type { Deps } from "../../../../deps.js";
import type { TaskDefinition } from "../../../../jobs/task.js";
import type { MetricsDeps } from "../../../metrics/metrics.js";
import type { AlertDelivery } from "../../alert-deps.js";
import { CONFIRM_LINK_TTL_MS } from "../../alert-email-confirmation.js";
import { alertEmailStates } from "../../alert-email-states.js";
import type { AlertJobPayload } from "../../alert-job.js";
import { checkAlertSettings, splitAlertEmails } from "../../alert-settings.js";
import { buildAlertEmail } from "../../build-alert-email.js";
import { type ChannelDriver, deliverAlert } from "../../deliver-alert.js";
import { waitForMail, wakeWaitingEmailAlerts } from "../../wait-for-mail.js";
import type { AlertChannelDefinition } from "../alert-channel.js";
import { alertDeliveryTask } from "../alert-delivery-task.js";
import { EMAIL_ALERT_TASK } from "./email-alert-task.js";

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

/**
 * The `deliver-email-alert` task: one alert e-mailed to the account's alert addresses. In a
 * process without SMTP_URL it waits instead (wait-for-mail.ts).
 */
export function deliverEmailAlert(
  delivery: AlertDelivery,
): TaskDefinition<AlertJobPayload, Deps & MetricsDeps> {
  const driver = emailDriver(delivery);
  return alertDeliveryTask(
    EMAIL_ALERT_TASK,
    (deps, payload, ctx) =>
      delivery.emailEnabled
        ? deliverAlert(deps, driver, payload.alertId, ctx)
        : waitForMail(deps, payload.alertId),
    delivery.emailEnabled
      ? { onWorkerStart: async (deps) => void (await wakeWaitingEmailAlerts(deps)) }
      : {},
  );
}

/** The channel's name among those `alerts.channel` stores (db/schema.ts, AlertChannelNames). */
declare module "../../../../db/schema.js" {
  interface AlertChannelNames {
    email: true;
  }
}

export const emailChannel = {
  name: "email",
  label: "E-mail",
  shortLabel: "E-mail",
  inSentence: "e-mail",
  task: EMAIL_ALERT_TASK,
  settings: [
    {
      key: "alert_emails",
      cli: {
        flags: "--alert-email <a@x,b@y>",
        help: 'alert e-mail addresses, comma-separated ("" removes them)',
      },
      cliLabel: "Alert e-mail",
      secret: false,
      auditKey: "alertEmails",
      audit: (before, after) => {
        const list = splitAlertEmails(after);
        return list.join(",") === splitAlertEmails(before).join(",")
          ? undefined
          : { count: list.length };
      },
      check: (raw, policy) => {
        const checked = checkAlertSettings({ alertEmails: raw }, policy);
        if (!checked.ok) return { ok: false, reason: checked.errors.join("; ") };
        const list = checked.settings.alertEmails ?? [];
        return { ok: true, stored: list.length === 0 ? null : list.join(",") };
      },
      show: (stored) => {
        const list = splitAlertEmails(stored);
        return list.length === 0 ? null : list.join(", ");
      },
      // Addresses added on the dashboard get no alert until their owner confirms them.
      describe: async (db, accountId, stored) => {
        const list = splitAlertEmails(stored);
        const { awaiting } = await alertEmailStates(db, accountId, list);
        const marked = list.map((e) =>
          awaiting.includes(e) ? `${e} (awaiting confirmation: no alerts yet)` : e,
        );
        return marked.length === 0 ? null : marked.join(", ");
      },
    },
  ],
  // Written whether or not this process can send mail: an alert for a channel the account set
  // up is never dropped; without SMTP_URL it waits (wait-for-mail.ts).
  target: (values) => {
    const emails = splitAlertEmails(values.alert_emails ?? null);
    return emails.length === 0 ? null : emails.join(", ");
  },
  deliveryTask: deliverEmailAlert,
  // Addresses still awaiting confirmation go with the addresses.
  closeAccount: async (trx, accountId) => {
    await trx.deleteFrom("alert_email_confirmations").where("account_id", "=", accountId).execute();
  },
} as const satisfies AlertChannelDefinition<"email">;
