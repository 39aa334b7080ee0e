/** The platform client for a stored connection, its credentials decrypted for this run only. */
import type { StoreConnectionsTable } from "../../db/schema.js";
import type { Credentials } from "./credentials.js";
import type { PlatformHttp } from "./platform-http.js";
import { createShopifyClient } from "./shopify-client.js";
import type { PlatformClient } from "./store-platform.js";
import { createWooCommerceClient } from "./woocommerce-client.js";

export function platformClient(
  http: PlatformHttp,
  connection: Pick<StoreConnectionsTable, "platform" | "shop">,
  credentials: Credentials,
  allowPrivate: boolean,
): PlatformClient {
  if (credentials.platform === "shopify" && connection.platform === "shopify") {
    return createShopifyClient(http, connection.shop, credentials.token, allowPrivate);
  }
  if (credentials.platform === "woocommerce" && connection.platform === "woocommerce") {
    return createWooCommerceClient(http, connection.shop, credentials.key, credentials.secret);
  }
  throw new Error(`stored credentials are not ${connection.platform} credentials`);
}
