/**
 * What alert delivery needs beyond `Deps`: a chat sender (paced, over the process's outbound
 * client, lib/outbound/outbound-http.ts) and an SMTP transport. Built once per process in `main` (both hold connection pools), given
 * to `alertTasks(delivery)`, closed on shutdown. Tests build one with a fake resolver or short
 * timeouts through `options`.
 */
import type { Config } from "../../config.js";
import type { AlertEmail } from "./build-alert-email.js";
import type { DeliveryResult } from "./delivery-result.js";
import { type ChatSenderOptions, createChatSender } from "./send-chat.js";
import { createMailSender } from "./send-mail.js";

export interface AlertDelivery {
  /** POSTs a chat payload to a webhook: guarded, paced, 10 s timeout, no redirects. */
  sendChat(webhookUrl: string, payload: object, signal: AbortSignal): Promise<DeliveryResult>;
  /** Sends an alert e-mail; `failed` when SMTP_URL is not set. */
  sendMail(message: AlertEmail): Promise<DeliveryResult>;
  /** False when SMTP_URL is not set: the e-mail channel is off. */
  emailEnabled: boolean;
  close(): Promise<void>;
}

/** What the alerts feature needs beyond `Deps`. */
export interface AlertsDeps {
  /** Chat (SSRF-guarded, paced) and SMTP senders for VIP alerts. */
  alerts: AlertDelivery;
}

export type AlertDeliveryOptions = Partial<ChatSenderOptions> & { mailTimeoutMs?: number };

export const CHAT_TIMEOUT_MS = 10_000;
export const WEBHOOK_PACING_MS = 1_000;
export const MAX_PACING_WAIT_MS = 10_000;

export function createAlertDelivery(
  config: Pick<Config, "alerts">,
  options: AlertDeliveryOptions = {},
): AlertDelivery {
  const chat = createChatSender({
    allowPrivate: options.allowPrivate ?? config.alerts.allowPrivateWebhooks,
    timeoutMs: options.timeoutMs ?? CHAT_TIMEOUT_MS,
    pacingIntervalMs: options.pacingIntervalMs ?? WEBHOOK_PACING_MS,
    maxPacingWaitMs: options.maxPacingWaitMs ?? MAX_PACING_WAIT_MS,
    resolve: options.resolve,
    http: options.http,
    shared: options.shared,
  });
  const smtpUrl = config.alerts.smtpUrl;
  const mail =
    smtpUrl === null
      ? null
      : createMailSender(smtpUrl, { timeoutMs: options.mailTimeoutMs ?? CHAT_TIMEOUT_MS });
  return {
    sendChat: (url, payload, signal) => chat.send(url, payload, signal),
    sendMail: async (message) =>
      mail === null
        ? {
            outcome: "failed",
            statusCode: null,
            error: "e-mail alerts are off: SMTP_URL is not set",
          }
        : mail.send(message),
    emailEnabled: mail !== null,
    close: async () => {
      mail?.close();
      await chat.close();
    },
  };
}
