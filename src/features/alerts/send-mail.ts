/**
 * Sending alert e-mail over SMTP with nodemailer: one pooled transport per process (created
 * once, reused, closed on shutdown), and every outcome classified as a DeliveryResult. An SMTP
 * reply decides by its class (RFC 5321): 4yz is temporary, 5yz permanent, except 503 (bad
 * sequence), which a fresh connection can get past. No reply at all (connection refused, reset,
 * timeout, DNS) is temporary.
 */
import { createTransport } from "nodemailer";
import { excerpt } from "../../lib/excerpt.js";
import type { AlertEmail } from "./build-alert-email.js";
import type { DeliveryResult } from "./delivery-result.js";

export interface MailSender {
  send(message: AlertEmail): Promise<DeliveryResult>;
  close(): void;
}

export interface MailSenderOptions {
  timeoutMs: number;
}

export function createMailSender(smtpUrl: string, options: MailSenderOptions): MailSender {
  const transport = createTransport({
    url: smtpUrl,
    pool: true,
    maxConnections: 2,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs * 3,
  });
  return {
    async send(message) {
      try {
        const info = await transport.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
        });
        const rejected = (info.rejected ?? []).map(String);
        return {
          outcome: "delivered",
          statusCode: replyCode(info.response),
          // Some recipients accepted, some refused: delivered, and the refusals are kept.
          error: rejected.length > 0 ? `rejected recipients: ${rejected.join(", ")}` : null,
        };
      } catch (error) {
        return classifySmtpError(error);
      }
    },
    close: () => transport.close(),
  };
}

export function classifySmtpError(error: unknown): DeliveryResult {
  const err = (typeof error === "object" && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
    permanent?: unknown;
    response?: unknown;
    message?: unknown;
  };
  const code = typeof err.code === "string" ? err.code : null;
  const responseCode = typeof err.responseCode === "number" ? err.responseCode : null;
  const text = excerpt(
    typeof err.response === "string"
      ? err.response
      : typeof err.message === "string"
        ? err.message
        : String(error),
  );
  if (responseCode !== null) {
    const permanent =
      typeof err.permanent === "boolean"
        ? err.permanent
        : responseCode >= 500 && responseCode !== 503;
    return permanent
      ? { outcome: "failed", statusCode: responseCode, error: text }
      : { outcome: "retry", statusCode: responseCode, error: text };
  }
  const described = code === null || text.includes(code) ? text : `${code}: ${text}`;
  // Without a server reply: a bad configuration or envelope (no recipients) cannot heal by
  // itself; a refused, reset or timed-out connection or a DNS failure may.
  if (code === "ECONFIG" || code === "EENVELOPE")
    return { outcome: "failed", statusCode: null, error: described };
  return { outcome: "retry", statusCode: null, error: described };
}

function replyCode(response: string | undefined): number | null {
  const m = /^(\d{3})\b/.exec(response ?? "");
  return m ? Number(m[1]) : null;
}
