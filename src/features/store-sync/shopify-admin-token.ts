/**
 * A Shopify connection's Admin API token for another feature that writes to the shop (the
 * Shopify destination): the same token source the sync uses (shopify-token.ts), so a Dev
 * Dashboard app's token is renewed by the client-credentials grant when it is near its end or
 * refused, and the renewed token is saved, sealed, with the connection.
 */
import type { OutboundHttp } from "../../lib/outbound/outbound-http.js";
import { openCredentials, requireKey, sealCredentials } from "./credentials.js";
import { createPlatformHttp } from "./platform-http.js";
import { shopOrigin } from "./shopify-client.js";
import { type ShopifyTokenSource, shopifyTokenSource } from "./shopify-token.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";

/** Token requests are small and quick; a stuck one must not hold a delivery's lease. */
const TOKEN_TIMEOUT_MS = 15_000;

export function shopifyAdminToken(
  deps: Pick<StoreSyncDeps, "db" | "config" | "clock">,
  connection: { id: string; shop: string; credentials: string },
  outbound: OutboundHttp,
): ShopifyTokenSource {
  const key = requireKey(deps.config.storeSync.tokenKey);
  const credentials = openCredentials(key, connection.id, connection.credentials);
  if (credentials.platform !== "shopify") throw new Error("the connection is not a Shopify store");
  const allowPrivate = deps.config.alerts.allowPrivateWebhooks;
  const http = createPlatformHttp({ allowPrivate, timeoutMs: TOKEN_TIMEOUT_MS }, outbound);
  return shopifyTokenSource(http, shopOrigin(connection.shop, allowPrivate), credentials, (c) =>
    deps.db.kysely
      .updateTable("store_connections")
      .set({ credentials: sealCredentials(key, connection.id, c), updated_at: deps.clock.now() })
      .where("id", "=", connection.id)
      .execute()
      .then(() => undefined),
  );
}
