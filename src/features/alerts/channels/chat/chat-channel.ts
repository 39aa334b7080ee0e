/**
 * The team-chat channel: a Slack-compatible incoming webhook (Mattermost and Rocket.Chat accept
 * the same). Its one setting, the webhook URL, is a secret: whoever holds it can post to the
 * channel, so it is masked wherever it is shown. Sends are paced per webhook (alert-deps.ts).
 */
import type { Deps } from "../../../../deps.js";
import type { TaskDefinition } from "../../../../jobs/task.js";
import type { MetricsDeps } from "../../../metrics/metrics.js";
import type { AlertDelivery } from "../../alert-deps.js";
import { type AlertJobPayload, alertTaskType } from "../../alert-job.js";
import { buildChatAlertPayload } from "../../build-chat-message.js";
import { type ChannelDriver, deliverAlert } from "../../deliver-alert.js";
import { checkWebhookUrl, maskWebhookUrl } from "../../webhook-url.js";
import type { AlertChannelDefinition } from "../alert-channel.js";
import { alertDeliveryTask } from "../alert-delivery-task.js";

const CHAT_ALERT_TASK = alertTaskType("deliver-chat-alert");

export function chatDriver(delivery: AlertDelivery): ChannelDriver {
  return {
    channel: "chat",
    target: (alert) => {
      const url = alert.settings.slack_webhook_url;
      return url ? maskWebhookUrl(url) : null;
    },
    send: (alert, _deps, signal) =>
      delivery.sendChat(
        alert.settings.slack_webhook_url ?? "",
        buildChatAlertPayload(alert.content, alert.messageId),
        signal,
      ),
  };
}

/** The `deliver-chat-alert` task: one alert to the account's team-chat webhook. */
export function deliverChatAlert(
  delivery: AlertDelivery,
): TaskDefinition<AlertJobPayload, Deps & MetricsDeps> {
  const driver = chatDriver(delivery);
  return alertDeliveryTask(CHAT_ALERT_TASK, (deps, payload, ctx) =>
    deliverAlert(deps, driver, payload.alertId, ctx),
  );
}

/** The channel's name among those `alerts.channel` stores (db/schema.ts, AlertChannelNames). */
declare module "../../../../db/schema.js" {
  interface AlertChannelNames {
    chat: true;
  }
}

export const chatChannel = {
  name: "chat",
  label: "Team chat",
  shortLabel: "Chat",
  inSentence: "team chat (webhook)",
  task: CHAT_ALERT_TASK,
  settings: [
    {
      key: "slack_webhook_url",
      cli: {
        flags: "--slack-webhook <url>",
        help: 'Slack-compatible incoming-webhook URL ("" removes it)',
      },
      cliLabel: "Chat webhook",
      secret: true,
      auditKey: "chatWebhook",
      audit: (before, after) => (after === before ? undefined : after === null ? "removed" : "set"),
      check: (raw, policy) => {
        if (raw.trim() === "") return { ok: true, stored: null };
        const checked = checkWebhookUrl(raw, policy);
        return checked.ok ? { ok: true, stored: checked.url } : checked;
      },
      show: (stored) => (stored === null ? null : maskWebhookUrl(stored)),
    },
  ],
  target: (values) => {
    const url = values.slack_webhook_url?.trim() ?? "";
    return url === "" ? null : maskWebhookUrl(url);
  },
  deliveryTask: deliverChatAlert,
} as const satisfies AlertChannelDefinition<"chat">;
