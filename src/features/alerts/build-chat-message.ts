/**
 * The chat alert as a Slack incoming-webhook payload: Block Kit `blocks` for Slack, and a plain
 * `text` that Slack shows in notifications and that Mattermost and Rocket.Chat (which ignore
 * blocks) show as the message. Laid out to be read in five seconds: who, how high, why, what
 * they bought, where, and one button to the customer's page.
 *
 * Every piece of customer data is made neutral (`neutralChatText`) for each format the text may
 * be read in: escaped for Slack mrkdwn (&, <, >), so `<!channel>` or `<https://evil|click>`
 * print as text; and, for Mattermost and Rocket.Chat, which read the same text as Markdown,
 * `[text](url)` links, bare URLs and `@all`/`@here`/`@someone` mentions are broken with an
 * invisible zero-width space, so they print as text too. The header is plain_text, which Slack
 * never parses for links or mentions.
 */

import { formatMoney } from "../../lib/money.js";
import { VERDICT_LABELS } from "../verdicts/verdict-links.js";
import type { AlertContent } from "./load-alert.js";
import { describeMore, describeReason } from "./top-reasons.js";

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
  /**
   * Slack's message metadata (`event_type` + `event_payload`, accepted by incoming webhooks):
   * the alert's delivery id, the same on every retry, so a receiver can drop a message it has
   * already seen (a crash between the server's `ok` and our record of it sends it again).
   */
  metadata?: { event_type: string; event_payload: { delivery_id: string } };
}

export const CHAT_ALERT_EVENT_TYPE = "velvet_vip_alert";

/** The alert's message with its delivery id (the alert's stable message id). */
export function buildChatAlertPayload(c: AlertContent, deliveryId: string): ChatMessage {
  return {
    ...buildChatMessage(c),
    metadata: { event_type: CHAT_ALERT_EVENT_TYPE, event_payload: { delivery_id: deliveryId } },
  };
}

// Slack's limits: header text 150 characters, a section field 2000.
const HEADER_MAX = 150;
const FIELD_MAX = 2000;

export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

const ZWSP = "\u200b";

/**
 * Customer-supplied text, safe in Slack mrkdwn and in Markdown: no mention, no link, no
 * formatting that changes what the text says.
 */
export function neutralChatText(text: string): string {
  return (
    escapeMrkdwn(text)
      // Markdown links and images: `](` no longer joins the label to the URL.
      .replace(/\]\(/g, `]${ZWSP}(`)
      // Auto-linked URLs: `scheme://` and `www.` are broken up.
      .replace(/([a-z][a-z0-9+.-]*):\/\//gi, `$1:${ZWSP}//`)
      .replace(/\bwww\./gi, `www${ZWSP}.`)
      // Mentions (@all, @channel, @here, @user) at the start of a word; e-mail addresses,
      // where @ follows a letter, are left alone.
      .replace(/(^|[^\p{L}\p{N}_.+-])@(?=[\p{L}\p{N}_])/gu, `$1@${ZWSP}`)
      // Channel links (Mattermost ~town-square) and Slack-style emphasis markers stay text.
      .replace(/(^|\s)~(?=\S)/g, `$1~${ZWSP}`)
  );
}

export function formatOrder(order: AlertContent["order"]): string | null {
  if (order === null) return null;
  const number =
    order.number === null ? null : order.number.startsWith("#") ? order.number : `#${order.number}`;
  const total = order.total === null ? null : formatMoney(order.total, order.currency);
  const parts = [number, total].filter((p): p is string => p !== null);
  return parts.length === 0 ? null : parts.join(" · ");
}

/** The reasons, then what the rest of the score adds ("+5 from 1 more signal"). */
function whyLines(c: AlertContent): string[] {
  const lines = c.reasons.map((r) => neutralChatText(describeReason(r)));
  return c.more ? [...lines, describeMore(c.more)] : lines;
}

export function buildChatMessage(c: AlertContent): ChatMessage {
  const name = neutralChatText(c.customerName);
  const order = formatOrder(c.order);
  // The tier is the merchant's own name for the score range: shown beside the score, neutral.
  const tier = c.tier ? ` · ${neutralChatText(c.tier)}` : "";
  const scoreLine = `${c.score}${tier} (threshold ${c.threshold})`;
  const fields: TextObject[] = [
    mrkdwn(`*Score*\n${scoreLine}`),
    mrkdwn(`*Order*\n${order === null ? "none" : neutralChatText(order)}`),
    mrkdwn(`*Location*\n${c.location === null ? "unknown" : neutralChatText(c.location)}`),
    mrkdwn(`*E-mail*\n${neutralChatText(c.customerEmail)}`),
  ];
  const why = whyLines(c);
  const reasons =
    why.length === 0 ? "_No single signal stood out._" : why.map((r) => `• ${r}`).join("\n");
  // A regular whose later orders made them a VIP: said first, in Velvet's words.
  const promotion = c.promotion ? `_${neutralChatText(c.promotion)}_\n` : "";
  const links = c.verdictLinks ?? null;
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
    { type: "section", text: mrkdwn(clip(`*Why*\n${promotion}${reasons}`, FIELD_MAX)) },
    {
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Open in Velvet" },
          url: c.customerUrl,
          style: "primary",
        },
        ...(links
          ? [
              { type: "button" as const, text: plainText(VERDICT_LABELS.right), url: links.right },
              { type: "button" as const, text: plainText(VERDICT_LABELS.wrong), url: links.wrong },
            ]
          : []),
      ],
    },
    { type: "context", elements: [mrkdwn(`${neutralChatText(c.storeName)} · Velvet VIP alert`)] },
  ];
  const text = [
    `VIP customer: *${name}*, score ${scoreLine}`,
    c.promotion ? neutralChatText(c.promotion) : null,
    order === null ? null : `Order ${neutralChatText(order)}`,
    c.location === null ? null : neutralChatText(c.location),
    why.length === 0 ? null : `Why: ${why.join("; ")}`,
    `<${c.customerUrl}|Open in Velvet>`,
    links === null
      ? null
      : `Is this a VIP? <${links.right}|${VERDICT_LABELS.right}> · <${links.wrong}|${VERDICT_LABELS.wrong}>`,
  ]
    .filter((line): line is string => line !== null)
    .join("\n");
  return { text, blocks };
}

function plainText(text: string): TextObject {
  return { type: "plain_text", text };
}

function mrkdwn(text: string): TextObject {
  return { type: "mrkdwn", text: clip(text, FIELD_MAX) };
}

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
