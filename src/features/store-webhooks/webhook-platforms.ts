/**
 * What differs between Shopify's and WooCommerce's webhooks, in one table: the headers a
 * delivery carries, the topics Velvet subscribes to and receives, the secret that signs, how a
 * payload becomes an order, and the client that manages subscriptions.
 *
 * Shopify (https://shopify.dev/docs/apps/build/webhooks/subscribe/https): `X-Shopify-Topic`,
 * `X-Shopify-Hmac-Sha256`, `X-Shopify-Webhook-Id` (the same on every retry of a delivery: the
 * de-duplication key). Velvet subscribes ORDERS_CREATE, ORDERS_UPDATED and ORDERS_CANCELLED,
 * delivered as `orders/create`, `orders/updated`, `orders/cancelled`. Signed with the app's client
 * secret; an app with a fixed Admin API token signs with its API secret key, which the merchant
 * gives at connect (`webhookSecret`), or the store stays on polling.
 *
 * WooCommerce (woocommerce/includes/class-wc-webhook.php, WC_Webhook::deliver):
 * `X-WC-Webhook-Topic`, `X-WC-Webhook-Signature`, `X-WC-Webhook-Delivery-ID`. Velvet subscribes
 * `order.created` and `order.updated` (a cancellation or refund is an update), signed with the
 * secret Velvet made for the connection.
 */
import type { Credentials } from "../store-sync/credentials.js";
import type { PlatformHttp } from "../store-sync/platform-http.js";
import type { ShopifyAccess } from "../store-sync/shopify-client.js";
import type { PulledOrder } from "../store-sync/store-platform.js";
import type { PlatformWebhooks } from "./platform-webhooks.js";
import { mapShopifyWebhookOrder } from "./shopify-order-payload.js";
import { createShopifyWebhooks } from "./shopify-webhooks.js";
import { mapWooWebhookOrder, wooPingWebhookId } from "./woocommerce-order-payload.js";
import { createWooCommerceWebhooks } from "./woocommerce-webhooks.js";

export type WebhookPlatform = "shopify" | "woocommerce";

export interface WebhookRules {
  name: string;
  signatureHeader: string;
  topicHeader: string;
  deliveryIdHeader: string;
  /** Topics as deliveries name them. */
  topics: readonly string[];
  /** Topics as subscriptions name them (what `PlatformWebhooks.list` answers). */
  subscriptionTopics: readonly string[];
  /** WooCommerce's unsigned ping when a webhook is created: the webhook's id; else null. */
  pingOf(raw: Buffer): string | null;
  /** The secret that signs this connection's deliveries; null: none known (polling only). */
  secretOf(credentials: Credentials): string | null;
  mapOrder(body: unknown): PulledOrder | null;
}

export const PLATFORM_WEBHOOKS: Record<WebhookPlatform, WebhookRules> = {
  shopify: {
    name: "Shopify",
    signatureHeader: "x-shopify-hmac-sha256",
    topicHeader: "x-shopify-topic",
    deliveryIdHeader: "x-shopify-webhook-id",
    topics: ["orders/create", "orders/updated", "orders/cancelled"],
    subscriptionTopics: ["ORDERS_CREATE", "ORDERS_UPDATED", "ORDERS_CANCELLED"],
    pingOf: () => null,
    secretOf: (c) =>
      c.platform === "shopify" ? (c.clientSecret ?? c.webhookSecret ?? null) : null,
    mapOrder: mapShopifyWebhookOrder,
  },
  woocommerce: {
    name: "WooCommerce",
    signatureHeader: "x-wc-webhook-signature",
    topicHeader: "x-wc-webhook-topic",
    deliveryIdHeader: "x-wc-webhook-delivery-id",
    topics: ["order.created", "order.updated"],
    subscriptionTopics: ["order.created", "order.updated"],
    // deliver_ping(): wp_safe_remote_post(delivery_url, body "webhook_id=<id>"), no signature.
    pingOf: (raw) => (raw.length > 64 ? null : wooPingWebhookId(raw.toString("utf8"))),
    secretOf: (c) => (c.platform === "woocommerce" ? (c.webhookSecret ?? null) : null),
    mapOrder: mapWooWebhookOrder,
  },
};

/**
 * The subscription client for a stored connection. `pinged` answers whether WooCommerce's ping
 * of a webhook it just created reached Velvet (pings.ts): WooCommerce creates the webhook even
 * when its ping fails, so that is how Velvet learns the store cannot reach PUBLIC_BASE_URL.
 */
export function platformWebhooks(
  http: PlatformHttp,
  connection: { platform: WebhookPlatform; shop: string },
  credentials: Credentials,
  access: ShopifyAccess,
  options: {
    onCredentials?: (credentials: Credentials) => void | Promise<void>;
    pinged?: (webhookId: string) => Promise<boolean>;
  } = {},
): PlatformWebhooks {
  const { onCredentials, pinged } = options;
  if (credentials.platform === "shopify" && connection.platform === "shopify") {
    return createShopifyWebhooks(http, connection.shop, credentials, access, onCredentials);
  }
  if (credentials.platform === "woocommerce" && connection.platform === "woocommerce") {
    return createWooCommerceWebhooks(http, connection.shop, credentials, onCredentials, {
      pinged,
    });
  }
  throw new Error(`stored credentials are not ${connection.platform} credentials`);
}
