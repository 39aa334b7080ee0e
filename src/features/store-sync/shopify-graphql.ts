/**
 * One shop's Admin GraphQL API, as every Velvet call to it needs it: the `X-Shopify-Access-Token`
 * header with the token from shopify-token.ts (a 401 renews it once), and Shopify's answers read
 * into what the caller should do (PlatformError, platform-http.ts).
 *
 * Refusals are said as Shopify says them: `ACCESS_DENIED` errors that come WITH data (orders
 * whose customer, e-mail and address are withheld) mean the app has no access to protected
 * customer data; without data, a missing scope. Both break the connection with what to fix.
 *
 * Rate limits are by calculated query cost: every answer carries `extensions.cost` with the
 * bucket's `throttleStatus` {maximumAvailable, currentlyAvailable, restoreRate}. Before each
 * query the client waits until the bucket holds the cost the last query asked for; a query that
 * is refused anyway (`THROTTLED` in `errors`, or HTTP 429 with Retry-After) throws a `wait`
 * PlatformError for the caller to wait out (wait-politely.ts: withWaits).
 */
import { z } from "zod";
import type { ShopifyCredentials } from "./credentials.js";
import { PlatformError, type PlatformHttp, transient } from "./platform-http.js";
import { type ShopifyAccess, shopifyEndpoint, shopOrigin } from "./shopify-shop.js";
import { type ShopifyTokenSource, shopifyTokenSource } from "./shopify-token.js";
import { waitForRoom } from "./wait-politely.js";

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

export interface ShopifyGraphql {
  /** One query or mutation; its `data` read with `schema`. Throws PlatformError. */
  query<T>(
    text: string,
    variables: Record<string, unknown>,
    schema: z.ZodType<T>,
    signal: AbortSignal,
  ): Promise<T>;
  tokens: ShopifyTokenSource;
}

export function createShopifyGraphql(
  http: PlatformHttp,
  shop: string,
  credentials: ShopifyCredentials,
  access: ShopifyAccess,
  onCredentials?: (credentials: ShopifyCredentials) => void | Promise<void>,
): ShopifyGraphql {
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

  return { query, tokens };
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
