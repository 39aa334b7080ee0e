/**
 * What one delivery attempt on a channel came to, as a value (never an exception):
 * - delivered: the chat server or SMTP server accepted the message;
 * - retry: a temporary failure (timeout, 5xx, 429, SMTP 4xx, connection error), optionally
 *   with the delay the server asked for (Retry-After);
 * - failed: a permanent failure (chat 400/403/404/410, a redirect, SMTP 5xx, an address the
 *   SSRF guard refuses): retrying cannot help;
 * - deferred: not an attempt that counts: nothing was sent (this process is pacing the
 *   webhook), or the receiver asked to slow down (a 429 with Retry-After, `statusCode` set).
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
    }
  | { outcome: "deferred"; delayMs: number; error: string; statusCode?: number };
