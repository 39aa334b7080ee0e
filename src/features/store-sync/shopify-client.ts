/**
 * Shopify's Admin GraphQL API for the order reads: `orders(first, after, query:
 * "updated_at:>='…'", sortKey: UPDATED_AT)` with `pageInfo { hasNextPage endCursor }`, the
 * orders count and the granted scopes, each over the shop's GraphQL machinery
 * (shopify-graphql.ts: the token, its renewal on a 401, cost-based throttling and Shopify's
 * refusals read into PlatformError). THROTTLED and 429 are waited out here (wait-politely.ts).
 */
import { z } from "zod";
import type { ShopifyCredentials } from "./credentials.js";
import type { PlatformHttp } from "./platform-http.js";
import { createShopifyGraphql } from "./shopify-graphql.js";
import {
  mapShopifyOrder,
  ORDERS_COUNT_QUERY,
  ORDERS_QUERY,
  OrderNode,
  SCOPES_QUERY,
  SHOPIFY_COUNT_LIMIT,
} from "./shopify-order.js";
import type { ShopifyAccess } from "./shopify-shop.js";
import {
  laterOf,
  nextPassSince,
  type OrderCount,
  type OrdersPage,
  type PlatformClient,
  type SyncCursor,
} from "./store-platform.js";
import { withWaits } from "./wait-politely.js";

export { safeJson } from "./shopify-graphql.js";
export {
  normalizeShop,
  type ShopifyAccess,
  shopDomain,
  shopifyEndpoint,
  shopOrigin,
} from "./shopify-shop.js";

export const SHOPIFY_PAGE_SIZE = 50;

const Orders = z.object({
  orders: z.object({
    edges: z.array(z.object({ cursor: z.string(), node: OrderNode })),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});
const OrdersCount = z.object({
  ordersCount: z.object({
    count: z.number().int().min(0),
    precision: z.enum(["EXACT", "AT_LEAST"]),
  }),
});
const Scopes = z.object({
  currentAppInstallation: z.object({ accessScopes: z.array(z.object({ handle: z.string() })) }),
});

export function createShopifyClient(
  http: PlatformHttp,
  shop: string,
  credentials: ShopifyCredentials,
  access: ShopifyAccess,
  onCredentials?: (credentials: ShopifyCredentials) => void | Promise<void>,
): PlatformClient {
  const { query, tokens } = createShopifyGraphql(http, shop, credentials, access, onCredentials);

  return {
    async fetchPage(cursor: SyncCursor, signal: AbortSignal): Promise<OrdersPage> {
      const variables = {
        first: SHOPIFY_PAGE_SIZE,
        after: cursor.after,
        query: `updated_at:>='${cursor.since}'`,
      };
      const { orders } = await withWaits(
        () => query(ORDERS_QUERY, variables, Orders, signal),
        signal,
      );
      let maxSeen = cursor.maxSeen;
      const pulled = orders.edges.map(({ node }) => {
        maxSeen = laterOf(maxSeen, new Date(node.updatedAt).toISOString());
        return mapShopifyOrder(node);
      });
      const last = !orders.pageInfo.hasNextPage || !orders.pageInfo.endCursor;
      const next: SyncCursor = last
        ? { since: nextPassSince(maxSeen, cursor.since), after: null, maxSeen: null }
        : { since: cursor.since, after: orders.pageInfo.endCursor ?? null, maxSeen };
      return { orders: pulled, next, last };
    },
    async countOrders(since: string, signal: AbortSignal): Promise<OrderCount> {
      const variables = { query: `updated_at:>='${since}'`, limit: SHOPIFY_COUNT_LIMIT };
      const { ordersCount } = await withWaits(
        () => query(ORDERS_COUNT_QUERY, variables, OrdersCount, signal),
        signal,
      );
      const precision = ordersCount.precision === "EXACT" ? "exact" : "at_least";
      return { count: ordersCount.count, precision };
    },
    async grantedScopes(signal: AbortSignal): Promise<string[]> {
      await tokens.current(signal);
      const granted = tokens.scopes();
      if (granted !== null) return granted;
      const answer = await withWaits(() => query(SCOPES_QUERY, {}, Scopes, signal), signal);
      return answer.currentAppInstallation.accessScopes.map((s) => s.handle);
    },
  };
}
