/** The `deliver-chat-alert` task: one alert to the account's team-chat webhook. */
import type { Deps } from "../../deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import type { MetricsDeps } from "../metrics/metrics.js";
import type { AlertDelivery } from "./alert-deps.js";
import { ALERT_BACKOFF, ALERT_TASKS, type AlertJobPayload } from "./alert-job.js";
import { buildChatAlertPayload } from "./build-chat-message.js";
import { type ChannelDriver, deliverAlert } from "./deliver-alert.js";
import { markAlertFailed } from "./record-delivery-attempt.js";
import { requeueFailedAlert } from "./requeue-failed-alert.js";
import { maskWebhookUrl } from "./webhook-url.js";

export function chatDriver(delivery: AlertDelivery): ChannelDriver {
  return {
    channel: "chat",
    target: (alert) => (alert.slackWebhookUrl ? maskWebhookUrl(alert.slackWebhookUrl) : null),
    send: (alert, _deps, signal) =>
      delivery.sendChat(
        alert.slackWebhookUrl ?? "",
        buildChatAlertPayload(alert.content, alert.messageId),
        signal,
      ),
  };
}

export function deliverChatAlert(
  delivery: AlertDelivery,
): TaskDefinition<AlertJobPayload, Deps & MetricsDeps> {
  const driver = chatDriver(delivery);
  return {
    ...ALERT_TASKS.chat,
    backoff: ALERT_BACKOFF,
    handle: (deps, payload, ctx) => deliverAlert(deps, driver, payload.alertId, ctx),
    onGiveUp: (deps, payload, error) => markAlertFailed(deps.db.kysely, payload.alertId, error),
    onRetry: (trx, payload) => requeueFailedAlert(trx, payload.alertId),
  };
}
