/**
 * Where a store delivers a connection's webhooks: `{PUBLIC_BASE_URL}/api/v1/webhooks/<platform>/
 * <connection id>`. The connection's id in the address names the secret that verifies the
 * delivery; a delivery to an unknown id is 404, which makes Shopify delete the subscription
 * after its retries and WooCommerce disable the webhook after its failures.
 *
 * Shopify and WooCommerce call only addresses they can reach: Shopify requires HTTPS
 * (https://shopify.dev/docs/apps/build/webhooks/subscribe/https), and WooCommerce delivers with
 * `wp_safe_remote_request`, which refuses private and loopback addresses. So Velvet subscribes
 * only when PUBLIC_BASE_URL is set to an https address, or to plain http on a loopback address
 * (a store on the same machine: development and tests). Otherwise the connection stays on
 * polling and says why.
 */
import type { Config } from "../../config.js";
import type { StorePlatform } from "../../db/schema.js";

export type WebhookAddress = { ok: true; url: string } | { ok: false; reason: string };

export const WEBHOOK_PATH = "/api/v1/webhooks";

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

export function webhookAddress(
  config: Pick<Config, "publicBaseUrl" | "publicBaseUrlSet">,
  platform: StorePlatform,
  connectionId: string,
): WebhookAddress {
  if (!config.publicBaseUrlSet) {
    return {
      ok: false,
      reason:
        "PUBLIC_BASE_URL is not set, so the store has no address to send its orders to: set it to Velvet's public https address and restart, and Velvet subscribes",
    };
  }
  const base = new URL(config.publicBaseUrl);
  const loopback = LOOPBACK.test(base.hostname);
  if (base.protocol !== "https:" && !(base.protocol === "http:" && loopback)) {
    return {
      ok: false,
      reason: `PUBLIC_BASE_URL (${config.publicBaseUrl}) is not an https address: stores deliver webhooks only over HTTPS`,
    };
  }
  const path = base.pathname.replace(/\/+$/, "");
  return { ok: true, url: `${base.origin}${path}${WEBHOOK_PATH}/${platform}/${connectionId}` };
}
