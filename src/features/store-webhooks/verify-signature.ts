/**
 * Both platforms sign a delivery the same way: the base64 HMAC-SHA256 of the raw request body,
 * keyed with a secret. Shopify puts it in `X-Shopify-Hmac-Sha256`, keyed with the app's client
 * secret (https://shopify.dev/docs/apps/build/webhooks/subscribe/https#step-2-validate-the-origin-of-your-webhook-to-ensure-its-coming-from-shopify);
 * WooCommerce in `X-WC-Webhook-Signature`, keyed with the webhook's secret
 * (WC_Webhook::generate_signature in woocommerce/includes/class-wc-webhook.php). The check runs
 * over the bytes as received, before anything parses them, and compares in constant time.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

export function signatureMatches(raw: Buffer, given: string | undefined, secret: string): boolean {
  if (given === undefined || given === "") return false;
  const expected = createHmac("sha256", secret).update(raw).digest();
  const sent = Buffer.from(given.trim(), "base64");
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}

/** The signature a platform would send for `raw` (tests, and the fakes' documentation). */
export function signatureOf(raw: Buffer | string, secret: string): string {
  return createHmac("sha256", secret).update(raw).digest("base64");
}
