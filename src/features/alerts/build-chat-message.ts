/**
 * The chat alert as a Slack incoming-webhook payload: Block Kit `blocks` for Slack, and a plain
 * `text` that Slack shows in notifications and that Mattermost and Rocket.Chat (which ignore
 * blocks) show as the message. Laid out to be read in five seconds: who, how high, why, what
 * they bought, where, and one button to the customer's page.
 *
 * Every piece of customer data is escaped for mrkdwn (&, <, >): a name like
 * `<!channel>` or `<https://evil|click>` must print as text, not ping or link. The header is
 * plain_text, which Slack never parses for links or mentions.
 */

import { formatMoney } from "../../lib/money.js";
import type { AlertContent } from "./load-alert.js";
import { describeReason } from "./top-reasons.js";

export interface TextObject {
  type: "plain_text" | "mrkdwn";
  text: string;
  emoji?: boolean;
}

export type ChatBlock =
  | { type: "header"; text: TextObject }
  | { type: "section"; text?: TextObject; fields?: TextObject[] }
  | { type: "context"; elements: TextObject[] }
  | {
      type: "actions";
      elements: Array<{ type: "button"; text: TextObject; url: string; style?: "primary" }>;
    };

export interface ChatMessage {
  text: string;
  blocks: ChatBlock[];
}

// Slack's limits: header text 150 characters, a section field 2000.
const HEADER_MAX = 150;
const FIELD_MAX = 2000;

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

export function formatOrder(order: AlertContent["order"]): string | null {
  if (order === null) return null;
  const number =
    order.number === null ? null : order.number.startsWith("#") ? order.number : `#${order.number}`;
  const total = order.total === null ? null : formatMoney(order.total, order.currency);
  const parts = [number, total].filter((p): p is string => p !== null);
  return parts.length === 0 ? null : parts.join(" · ");
}

export function buildChatMessage(c: AlertContent): ChatMessage {
  const name = escapeMrkdwn(c.customerName);
  const order = formatOrder(c.order);
  const scoreLine = `${c.score} (threshold ${c.threshold})`;
  const fields: TextObject[] = [
    mrkdwn(`*Score*\n${scoreLine}`),
    mrkdwn(`*Order*\n${order === null ? "none" : escapeMrkdwn(order)}`),
    mrkdwn(`*Location*\n${c.location === null ? "unknown" : escapeMrkdwn(c.location)}`),
    mrkdwn(`*E-mail*\n${escapeMrkdwn(c.customerEmail)}`),
  ];
  const reasons =
    c.reasons.length === 0
      ? "_No single signal stood out._"
      : c.reasons.map((r) => `• ${escapeMrkdwn(describeReason(r))}`).join("\n");
  const blocks: ChatBlock[] = [
    {
      type: "header",
      text: {
        type: "plain_text",
        text: clip(`VIP customer: ${c.customerName}`, HEADER_MAX),
        emoji: true,
      },
    },
    { type: "section", fields },
    { type: "section", text: mrkdwn(clip(`*Why*\n${reasons}`, FIELD_MAX)) },
    {
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Open in Velvet" },
          url: c.customerUrl,
          style: "primary",
        },
      ],
    },
    { type: "context", elements: [mrkdwn(`${escapeMrkdwn(c.storeName)} · Velvet VIP alert`)] },
  ];
  const text = [
    `VIP customer: *${name}*, score ${scoreLine}`,
    order === null ? null : `Order ${escapeMrkdwn(order)}`,
    c.location === null ? null : escapeMrkdwn(c.location),
    c.reasons.length === 0
      ? null
      : `Why: ${c.reasons.map((r) => escapeMrkdwn(describeReason(r))).join("; ")}`,
    `<${c.customerUrl}|Open in Velvet>`,
  ]
    .filter((line): line is string => line !== null)
    .join("\n");
  return { text, blocks };
}

function mrkdwn(text: string): TextObject {
  return { type: "mrkdwn", text: clip(text, FIELD_MAX) };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
