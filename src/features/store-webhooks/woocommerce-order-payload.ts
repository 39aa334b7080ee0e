/**
 * What a WooCommerce webhook delivers, read as an order. An `order.created` or `order.updated`
 * delivery is the REST API's order JSON: the webhook builds its payload by asking its own API
 * version's endpoint (`/wc/v3/orders/<id>` for `wp_api_v3`, class-wc-webhook.php
 * get_wp_api_payload), the JSON the order reads take. So it is mapped by the same mapWooOrder
 * (store-sync/woocommerce-order.ts): checkout drafts, pending and failed orders skipped,
 * cancelled and refunded ones kept with counts=false.
 *
 * Not an order (null): WooCommerce's ping on creating a webhook, `webhook_id=<id>` form-encoded
 * and unsigned (deliver_ping), and a deleted order's `{"id": …}` (build_payload sends only the
 * id for `deleted` events).
 */
import { safeJson } from "../store-sync/shopify-client.js";
import type { PulledOrder } from "../store-sync/store-platform.js";
import { mapWooOrder, WooOrder } from "../store-sync/woocommerce-order.js";

/** `body`: the delivery's parsed JSON, or its raw text. */
export function mapWooWebhookOrder(body: unknown): PulledOrder | null {
  const value = typeof body === "string" ? safeJson(body) : body;
  const parsed = WooOrder.safeParse(value);
  return parsed.success ? mapWooOrder(parsed.data) : null;
}

/**
 * The webhook id of WooCommerce's ping (`webhook_id=12`), or null when the body is not one.
 * WooCommerce counts the ping as reached only on an answer of exactly 200 (deliver_ping).
 */
export function wooPingWebhookId(raw: string): string | null {
  const match = /^webhook_id=(\d+)$/.exec(raw.trim());
  return match?.[1] ?? null;
}
