/**
 * "Send a test message" to the saved team-chat webhook, through the alerts feature's chat
 * sender (SSRF-guarded at connect time, no redirects, timeout, paced per webhook), so the test
 * travels exactly the way a real alert will.
 */

import type { Logger } from "pino";
import type { AlertDelivery } from "../../alerts/alert-deps.js";
import { neutralChatText } from "../../alerts/build-chat-message.js";
import type { Notice } from "../html/components.js";

export type SendChat = AlertDelivery["sendChat"];

export function testMessagePayload(storeName: string, settingsUrl: string): object {
  const store = neutralChatText(storeName);
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

/**
 * The outcome as the signed-in user sees it. A failure before any chat server answered says
 * only "not a public address" or "could not be reached": how names resolve inside our network
 * and which connections fail there is for the server log, not for whoever types a URL.
 */
export async function sendTestMessage(
  sendChat: SendChat,
  log: Logger,
  input: { webhookUrl: string; storeName: string; publicBaseUrl: string; maskedUrl: string },
): Promise<Notice> {
  const payload = testMessagePayload(input.storeName, `${input.publicBaseUrl}/settings/alerts`);
  const result = await sendChat(input.webhookUrl, payload, AbortSignal.timeout(15_000));
  if (result.outcome === "delivered")
    return {
      kind: "success",
      text: `Test message sent to ${input.maskedUrl}. Check your channel.`,
    };
  if (result.outcome === "deferred")
    return {
      kind: "info",
      text: "A message was just sent to this webhook; wait a second and try again.",
    };
  log.warn(
    { webhook: input.maskedUrl, statusCode: result.statusCode, error: result.error },
    "test message not delivered",
  );
  if (result.outcome === "failed" && result.notPublic)
    return {
      kind: "error",
      text: "The test message was not sent: the webhook's address is not a public address.",
    };
  if (result.statusCode === null)
    return {
      kind: "error",
      text: "The test message could not be delivered: the webhook could not be reached.",
    };
  // The chat server answered: its status and, for Slack-style servers, the error code
  // (`channel_not_found`) tell the user what to fix; nothing else of the answer is shown.
  const code = /^\d{3} ([a-z_]{3,60})$/.exec(result.error.trim())?.[1];
  return {
    kind: "error",
    text: `The test message could not be delivered (HTTP ${result.statusCode})${code ? `: ${code}` : ""}.`,
  };
}
