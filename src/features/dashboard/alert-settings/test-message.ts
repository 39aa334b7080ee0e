/**
 * "Send a test message" to the saved team-chat webhook, through the alerts feature's chat
 * sender (SSRF-guarded at connect time, no redirects, timeout, paced per webhook), so the test
 * travels exactly the way a real alert will.
 */
import type { AlertDelivery } from "../../alerts/alert-deps.js";
import { escapeMrkdwn } from "../../alerts/build-chat-message.js";
import type { Notice } from "../html/components.js";

export type SendChat = AlertDelivery["sendChat"];

export function testMessagePayload(storeName: string, settingsUrl: string): object {
  const store = escapeMrkdwn(storeName);
  const text = `Velvet test message for *${store}*: VIP alerts will arrive in this channel. <${settingsUrl}|Alert settings>`;
  return {
    text,
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `:white_check_mark: *Velvet is connected.*\nVIP alerts for *${store}* will arrive in this channel.`,
        },
      },
      {
        type: "context",
        elements: [
          {
            type: "mrkdwn",
            text: `This is a test message, sent from <${settingsUrl}|Velvet's alert settings>.`,
          },
        ],
      },
    ],
  };
}

export async function sendTestMessage(
  sendChat: SendChat,
  input: { webhookUrl: string; storeName: string; publicBaseUrl: string; maskedUrl: string },
): Promise<Notice> {
  const payload = testMessagePayload(input.storeName, `${input.publicBaseUrl}/settings/alerts`);
  const result = await sendChat(input.webhookUrl, payload, AbortSignal.timeout(15_000));
  switch (result.outcome) {
    case "delivered":
      return {
        kind: "success",
        text: `Test message sent to ${input.maskedUrl}. Check your channel.`,
      };
    case "deferred":
      return {
        kind: "info",
        text: "A message was just sent to this webhook; wait a second and try again.",
      };
    default:
      return {
        kind: "error",
        text: `The test message could not be delivered${result.statusCode ? ` (HTTP ${result.statusCode})` : ""}: ${result.error}`,
      };
  }
}
