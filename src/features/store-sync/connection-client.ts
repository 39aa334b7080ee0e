/** The platform client for a stored connection, its credentials decrypted for this run only. */
import type { Config } from "../../config.js";
import type { StoreConnectionsTable } from "../../db/schema.js";
import type { Credentials } from "./credentials.js";
import type { PlatformHttp } from "./platform-http.js";
import { createShopifyClient, type ShopifyAccess } from "./shopify-client.js";
import type { PlatformClient } from "./store-platform.js";
import { createWooCommerceClient } from "./woocommerce-client.js";

export function platformClient(
  http: PlatformHttp,
  connection: Pick<StoreConnectionsTable, "platform" | "shop">,
  credentials: Credentials,
  access: ShopifyAccess,
  /** Called when the credentials change: a renewed token, a host's quirk found out. */
  onCredentials?: (credentials: Credentials) => void | Promise<void>,
): PlatformClient {
  if (credentials.platform === "shopify" && connection.platform === "shopify") {
    return createShopifyClient(http, connection.shop, credentials, access, onCredentials);
  }
  if (credentials.platform === "woocommerce" && connection.platform === "woocommerce") {
    return createWooCommerceClient(http, connection.shop, credentials, onCredentials);
  }
  throw new Error(`stored credentials are not ${connection.platform} credentials`);
}

/** How this process reaches a shop: WEBHOOKS_ALLOW_PRIVATE and SHOPIFY_API_VERSION. */
export function shopifyAccess(config: Pick<Config, "alerts" | "storeSync">): ShopifyAccess {
  return {
    allowPrivate: config.alerts.allowPrivateWebhooks,
    apiVersion: config.storeSync.shopifyApiVersion,
  };
}
