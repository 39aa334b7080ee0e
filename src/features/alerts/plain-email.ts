/**
 * Velvet's own short e-mails (links to confirm an address, sign-up notes), sent through the
 * alerts feature's SMTP sender from ALERT_FROM. Text and a minimal HTML part; every value is
 * escaped; a fresh Message-ID each time.
 */
import { randomUUID } from "node:crypto";
import { escapeHtml } from "../../lib/escape-html.js";
import type { AlertEmail } from "./build-alert-email.js";

export interface PlainEmail {
  from: string;
  to: string;
  subject: string;
  paragraphs: string[];
  /** A button-like link after the paragraphs. */
  link?: { url: string; label: string };
}

export function buildPlainEmail(e: PlainEmail): AlertEmail {
  const text = [
    ...e.paragraphs.flatMap((p) => [p, ""]),
    ...(e.link ? [`${e.link.label}: ${e.link.url}`, ""] : []),
  ].join("\n");
  const html = [
    "<!doctype html>",
    '<html><body style="font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#111">',
    ...e.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    e.link ? `<p><a href="${escapeHtml(e.link.url)}">${escapeHtml(e.link.label)}</a></p>` : "",
    "</body></html>",
  ].join("\n");
  return {
    from: e.from,
    to: [e.to],
    subject: e.subject,
    text,
    html,
    messageId: `<${randomUUID()}@velvet>`,
  };
}
