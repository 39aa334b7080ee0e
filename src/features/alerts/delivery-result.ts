/**
 * What one delivery attempt on a channel came to, as a value (never an exception):
 * - delivered: the chat server or SMTP server accepted the message;
 * - retry: a temporary failure (timeout, 5xx, 429, SMTP 4xx, connection error), optionally
 *   with the delay the server asked for (Retry-After);
 * - failed: a permanent failure (chat 400/403/404/410, a redirect, SMTP 5xx, an address the
 *   SSRF guard refuses): retrying cannot help;
 * - deferred: not delivered, but not a failure either: this process is pacing the webhook
 *   (nothing sent), or the server answered 429 (slow down) with the delay it asked for; the
 *   job waits without spending an attempt.
 */
export type DeliveryResult =
  | { outcome: "delivered"; statusCode: number | null; error: string | null }
  | { outcome: "retry"; statusCode: number | null; error: string; delayMs?: number }
  | {
      outcome: "failed";
      statusCode: number | null;
      error: string;
      /** The SSRF guard refused the address: it is not a public one. */
      notPublic?: true;
      /** The receiver answered 410 Gone: it wants nothing more, so its destination is disabled. */
      gone?: true;
    }
  | { outcome: "deferred"; statusCode: number | null; delayMs: number; error: string };
