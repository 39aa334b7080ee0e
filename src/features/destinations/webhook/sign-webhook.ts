/**
 * Standard Webhooks signing (standardwebhooks.com): the secret is `whsec_` + base64 of 32
 * random bytes; each request carries `webhook-id` (the delivery's id, the same on every retry),
 * `webhook-timestamp` (Unix seconds of this attempt) and `webhook-signature`
 * (`v1,` + base64 HMAC-SHA256 under the decoded key of `${id}.${timestamp}.${body}`). Any
 * Standard Webhooks library verifies it.
 */
import { createHmac, randomBytes } from "node:crypto";

const PREFIX = "whsec_";

export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString("base64")}`;
}

export function webhookSignature(secret: string, id: string, timestamp: number, body: string) {
  const key = Buffer.from(
    secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret,
    "base64",
  );
  const mac = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64");
  return `v1,${mac}`;
}

/** The three headers of one attempt, signed at `nowMs`. */
export function signedHeaders(secret: string, id: string, nowMs: number, body: string) {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": webhookSignature(secret, id, timestamp, body),
  };
}
