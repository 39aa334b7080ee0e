/**
 * Shopify's Admin GraphQL API: `orders(first, after, query: "updated_at:>='…'", sortKey:
 * UPDATED_AT)` with `pageInfo { hasNextPage endCursor }`, authenticated by the
 * `X-Shopify-Access-Token` header (the token from shopify-token.ts; a 401 renews it once).
 *
 * Refusals are said as Shopify says them: `ACCESS_DENIED` errors that come WITH data (orders
 * whose customer, e-mail and address are withheld) mean the app has no access to protected
 * customer data; without data, a missing scope. Both break the connection with what to fix.
 *
 * Rate limits are by calculated query cost: every answer carries `extensions.cost` with the
 * bucket's `throttleStatus` {maximumAvailable, currentlyAvailable, restoreRate}. Before each
 * query the client waits until the bucket holds the cost the last query asked for; a query that
 * is refused anyway (`THROTTLED` in `errors`, or HTTP 429 with Retry-After) is asked again after
 * the time the bucket needs to refill (wait-politely.ts).
 */
import { z } from "zod";
import { AppError } from "../../lib/app-error.js";
import type { ShopifyCredentials } from "./credentials.js";
import { PlatformError, type PlatformHttp, transient } from "./platform-http.js";
import {
  mapShopifyOrder,
  ORDERS_COUNT_QUERY,
  ORDERS_QUERY,
  OrderNode,
  SCOPES_QUERY,
  SHOPIFY_COUNT_LIMIT,
} from "./shopify-order.js";
import { shopifyTokenSource } from "./shopify-token.js";
import {
  laterOf,
  nextPassSince,
  type OrderCount,
  type OrdersPage,
  type PlatformClient,
  type SyncCursor,
} from "./store-platform.js";
import { waitForRoom, withWaits } from "./wait-politely.js";

export const SHOPIFY_PAGE_SIZE = 50;

/**
 * How Velvet reaches a shop: whether private addresses are allowed (tests, a proxy) and the
 * Admin API version in the URL (SHOPIFY_API_VERSION; its lifecycle in shopify-api-version.ts).
 */
export interface ShopifyAccess {
  allowPrivate: boolean;
  apiVersion: string;
}

const Cost = z.object({
  requestedQueryCost: z.number().nullish(),
  actualQueryCost: z.number().nullish(),
  throttleStatus: z.object({
    maximumAvailable: z.number(),
    currentlyAvailable: z.number(),
    restoreRate: z.number(),
  }),
});
type Cost = z.infer<typeof Cost>;

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

const Answer = z.object({
  data: z.unknown().optional(),
  errors: z
    .array(
      z.object({
        message: z.string(),
        path: z.array(z.union([z.string(), z.number()])).optional(),
        extensions: z.object({ code: z.string().optional() }).passthrough().optional(),
      }),
    )
    .optional(),
  extensions: z.object({ cost: Cost.optional() }).passthrough().optional(),
});
type GraphQlError = NonNullable<z.infer<typeof Answer>["errors"]>[number];

/** `name.myshopify.com`; with private addresses allowed (tests, a proxy), any http(s) origin. */
export function shopifyEndpoint(shop: string, access: ShopifyAccess): string {
  const origin = shopOrigin(shop, access.allowPrivate);
  return `${origin}/admin/api/${access.apiVersion}/graphql.json`;
}

/** The shop as stored: its myshopify.com domain (with private addresses allowed, an origin). */
export function normalizeShop(shop: string, allowPrivate: boolean): string {
  const s = shop.trim().toLowerCase().replace(/\/+$/, "");
  return shopDomain(s) ?? shopOrigin(s, allowPrivate);
}

/**
 * The shop's myshopify.com domain from what a merchant pastes: the domain itself, its https://
 * address (any path), the admin's address (admin.shopify.com/store/<name>/…) or the bare shop
 * name. Null when it is none of these.
 */
export function shopDomain(input: string): string | null {
  const s = input.trim().toLowerCase();
  const admin =
    /^(?:https?:\/\/)?admin\.shopify\.com\/store\/([a-z0-9][a-z0-9-]*)(?:[/?#].*)?$/.exec(s);
  if (admin) return `${admin[1]}.myshopify.com`;
  const host = /^(?:https?:\/\/)?([a-z0-9][a-z0-9-]*\.myshopify\.com)(?::443)?(?:[/?#].*)?$/.exec(
    s,
  );
  if (host) return host[1] as string;
  if (/^[a-z0-9][a-z0-9-]*$/.test(s)) return `${s}.myshopify.com`;
  return null;
}

export function shopOrigin(shop: string, allowPrivate: boolean): string {
  const s = shop.trim().toLowerCase().replace(/\/+$/, "");
  const domain = shopDomain(s);
  if (domain !== null) return `https://${domain}`;
  if (allowPrivate && /^https?:\/\//.test(s)) {
    try {
      return new URL(s).origin;
    } catch {
      // falls through to the message below
    }
  }
  throw new AppError(
    "bad_request",
    `The shop's address must be its myshopify.com domain, such as acme.myshopify.com, or its name (got "${shop}")`,
  );
}

export function createShopifyClient(
  http: PlatformHttp,
  shop: string,
  credentials: ShopifyCredentials,
  access: ShopifyAccess,
  onCredentials?: (credentials: ShopifyCredentials) => void | Promise<void>,
): PlatformClient {
  const endpoint = shopifyEndpoint(shop, access);
  const tokens = shopifyTokenSource(
    http,
    shopOrigin(shop, access.allowPrivate),
    credentials,
    onCredentials,
  );
  let bucket: { needMs: number } = { needMs: 0 };

  async function post(body: string, signal: AbortSignal) {
    const send = (token: string) =>
      http.call(
        endpoint,
        {
          method: "POST",
          headers: { "content-type": "application/json", "x-shopify-access-token": token },
          body,
        },
        signal,
      );
    try {
      return await send(await tokens.current(signal));
    } catch (error) {
      const refused =
        error instanceof PlatformError &&
        error.failure.kind === "broken" &&
        error.failure.status === 401;
      if (!refused) throw error;
      const renewed = await tokens.renew(signal);
      if (renewed === null) throw error;
      return send(renewed);
    }
  }

  async function query<T>(
    text: string,
    variables: Record<string, unknown>,
    schema: z.ZodType<T>,
    signal: AbortSignal,
  ): Promise<T> {
    await waitForRoom(bucket.needMs, signal);
    const res = await post(JSON.stringify({ query: text, variables }), signal);
    const parsed = Answer.safeParse(safeJson(res.body));
    if (!parsed.success) throw transient("Shopify answered with an unreadable page");
    const answer = parsed.data;
    const cost = answer.extensions?.cost;
    bucket = { needMs: cost ? refillMs(cost) : 0 };
    const errors = answer.errors ?? [];
    if (errors.some((e) => e.extensions?.code === "THROTTLED")) {
      throw new PlatformError({
        kind: "wait",
        delayMs: Math.max(bucket.needMs, 1000),
        message: "Shopify throttled the query (THROTTLED)",
      });
    }
    const denied = errors.filter((e) => e.extensions?.code === "ACCESS_DENIED");
    if (denied.length > 0) throw accessDenied(denied, answer.data != null);
    // Any other coded error (MAX_COST_EXCEEDED, a field this API version lacks) comes back the
    // same however often it is asked: the connection is broken, with Shopify's words.
    const refused = errors.find(
      (e) => e.extensions?.code !== undefined && e.extensions.code !== "INTERNAL_SERVER_ERROR",
    );
    if (refused !== undefined) {
      throw new PlatformError({
        kind: "broken",
        message: `Shopify refused the query (${refused.extensions?.code}: ${refused.message})`,
      });
    }
    const data = schema.safeParse(answer.data);
    if (errors.length > 0 || !data.success) {
      throw transient(`Shopify: ${errors.map((e) => e.message).join("; ") || "no data"}`);
    }
    return data.data;
  }

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

/** Data with ACCESS_DENIED: protected customer data withheld; without data: a missing scope. */
function accessDenied(denied: GraphQlError[], withData: boolean): PlatformError {
  const said = denied[0]?.message ?? "ACCESS_DENIED";
  const customerData =
    withData ||
    denied.some((e) => /customer|mailingaddress|email|phone|protected/i.test(e.message));
  return new PlatformError({
    kind: "broken",
    message: customerData
      ? `Shopify withholds the customers' names, e-mails and addresses from this app (ACCESS_DENIED: ${said}). In the Dev Dashboard, request access to protected customer data for the app (the name, email, phone and address fields), then reconnect`
      : `Shopify refused the query (ACCESS_DENIED: ${said}). Give the app the read_orders and read_customers scopes (and read_all_orders for older history), install the new version on the shop, then reconnect`,
  });
}

/** How long until the bucket holds what the last query asked for again. */
function refillMs(cost: Cost): number {
  const { currentlyAvailable, restoreRate, maximumAvailable } = cost.throttleStatus;
  const wanted = Math.min(cost.requestedQueryCost ?? 0, maximumAvailable);
  if (currentlyAvailable >= wanted || restoreRate <= 0) return 0;
  return Math.ceil(((wanted - currentlyAvailable) / restoreRate) * 1000);
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
