/**
 * The e-mail alert: the same content as the chat message, as a text part and an HTML part.
 * Every piece of customer data is HTML-escaped in the HTML part; in the subject the customer's
 * name is one line, at most 40 characters and stripped of URLs (subject-text.ts). The
 * Message-ID is the alert's stored one, so a retried send is recognisably the same message,
 * and its "Right" / "Not a VIP" links are signed with the alert's own secret, so a retry
 * carries the same bytes.
 */
import { escapeHtml } from "../../lib/escape-html.js";
import { VERDICT_LABELS } from "../verdicts/verdict-links.js";
import { formatOrder } from "./build-chat-message.js";
import type { AlertContent } from "./load-alert.js";
import { subjectText } from "./subject-text.js";
import { describeMore, describeReason } from "./top-reasons.js";

const BUTTON =
  "display:inline-block;padding:6px 14px;margin-right:8px;border:1px solid #555;border-radius:4px;color:#111;text-decoration:none";

export interface AlertEmail {
  from: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  /** `<…@…>`, stable across retries. */
  messageId: string;
}

export interface AlertEmailEnvelope {
  from: string;
  to: string[];
  messageId: string;
}

export function buildAlertEmail(c: AlertContent, envelope: AlertEmailEnvelope): AlertEmail {
  const order = formatOrder(c.order) ?? "none";
  const location = c.location ?? "unknown";
  const tier = c.tier ? ` · ${c.tier}` : "";
  const score = `${c.score}${tier} (threshold ${c.threshold})`;
  // The reasons, then what the rest of the score adds, so the lines sum to the score.
  const reasons = [...c.reasons.map(describeReason), ...(c.more ? [describeMore(c.more)] : [])];
  const links = c.verdictLinks ?? null;
  // The name is the customer's own text: shortened and without links in the subject.
  const subject = `VIP customer: ${subjectText(c.customerName) || "a new customer"} (score ${c.score}${c.tier ? ` · ${subjectText(c.tier)}` : ""})`;

  const text = [
    `${c.customerName} is a VIP customer of ${c.storeName}.`,
    ...(c.promotion ? [`${c.customerName} is ${c.promotion}.`] : []),
    "",
    `Score:    ${score}`,
    `Order:    ${order}`,
    `Location: ${location}`,
    `E-mail:   ${c.customerEmail}`,
    "",
    "Why:",
    ...(reasons.length === 0 ? ["  No single signal stood out."] : reasons.map((r) => `  - ${r}`)),
    "",
    `Open in Velvet: ${c.customerUrl}`,
    ...(links
      ? [
          "",
          "Is this customer a VIP? Tell Velvet (no sign-in needed):",
          `  ${`${VERDICT_LABELS.right}:`.padEnd(10)} ${links.right}`,
          `  ${`${VERDICT_LABELS.wrong}:`.padEnd(10)} ${links.wrong}`,
        ]
      : []),
    "",
  ].join("\n");

  const row = (label: string, value: string) =>
    `<tr><th align="left" style="padding:4px 12px 4px 0;color:#555">${label}</th><td style="padding:4px 0">${escapeHtml(value)}</td></tr>`;
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#111">',
    `<h2 style="margin:0 0 8px">VIP customer: ${escapeHtml(c.customerName)}</h2>`,
    `<p style="margin:0 0 12px;color:#555">${escapeHtml(c.storeName)}</p>`,
    ...(c.promotion ? [`<p style="margin:0 0 12px">${escapeHtml(c.promotion)}</p>`] : []),
    "<table>",
    row("Score", score),
    row("Order", order),
    row("Location", location),
    row("E-mail", c.customerEmail),
    "</table>",
    '<h3 style="margin:16px 0 4px">Why</h3>',
    reasons.length === 0
      ? "<p>No single signal stood out.</p>"
      : `<ul>${reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join("")}</ul>`,
    `<p><a href="${escapeHtml(c.customerUrl)}">Open in Velvet</a></p>`,
    ...(links
      ? [
          '<p style="margin:16px 0 4px">Is this customer a VIP? Tell Velvet (no sign-in needed):</p>',
          `<p><a href="${escapeHtml(links.right)}" style="${BUTTON}">${VERDICT_LABELS.right}</a> <a href="${escapeHtml(links.wrong)}" style="${BUTTON}">${VERDICT_LABELS.wrong}</a></p>`,
        ]
      : []),
    "</body></html>",
  ].join("\n");

  return {
    from: envelope.from,
    to: envelope.to,
    subject,
    text,
    html,
    messageId: envelope.messageId,
  };
}
