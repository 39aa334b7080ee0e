/**
 * Shopify's Admin GraphQL API: `orders(first, after, query: "updated_at:>='…'", sortKey:
 * UPDATED_AT)` with `pageInfo { hasNextPage endCursor }`, authenticated by the
 * `X-Shopify-Access-Token` header.
 *
 * Rate limits are by calculated query cost: every answer carries `extensions.cost` with the
 * bucket's `throttleStatus` {maximumAvailable, currentlyAvailable, restoreRate}. Before each
 * query the client waits until the bucket holds the cost the last query asked for; a query that
 * is refused anyway (`THROTTLED` in `errors`, or HTTP 429 with Retry-After) is asked again after
 * the time the bucket needs to refill (wait-politely.ts).
 */
import { z } from "zod";
import { AppError } from "../../lib/app-error.js";
import { parseOrderRequest } from "../orders/order-request.js";
import { PlatformError, type PlatformHttp, transient } from "./platform-http.js";
import {
  laterOf,
  nextPassSince,
  type OrdersPage,
  type PlatformClient,
  type PulledOrder,
  type SyncCursor,
} from "./store-platform.js";
import { waitForRoom, withWaits } from "./wait-politely.js";

/** A stable Admin API version; Shopify supports each for at least 12 months. */
export const SHOPIFY_API_VERSION = "2026-07";
export const SHOPIFY_PAGE_SIZE = 50;

export const ORDERS_QUERY = `query VelvetOrders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    edges {
      cursor
      node {
        legacyResourceId
        name
        email
        phone
        createdAt
        updatedAt
        totalPriceSet { shopMoney { amount currencyCode } }
        customer { firstName lastName email phone }
        billingAddress { firstName lastName phone city provinceCode zip countryCodeV2 }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

const nullableString = z.string().nullish();
const OrderNode = z.object({
  legacyResourceId: z.union([z.string(), z.number()]).transform(String),
  name: nullableString,
  email: nullableString,
  phone: nullableString,
  createdAt: z.string(),
  updatedAt: z.string(),
  totalPriceSet: z
    .object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }) })
    .nullish(),
  customer: z
    .object({
      firstName: nullableString,
      lastName: nullableString,
      email: nullableString,
      phone: nullableString,
    })
    .nullish(),
  billingAddress: z
    .object({
      firstName: nullableString,
      lastName: nullableString,
      phone: nullableString,
      city: nullableString,
      provinceCode: nullableString,
      zip: nullableString,
      countryCodeV2: nullableString,
    })
    .nullish(),
});
type OrderNode = z.infer<typeof OrderNode>;

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
  data: z
    .object({
      orders: z.object({
        edges: z.array(z.object({ cursor: z.string(), node: OrderNode })),
        pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
      }),
    })
    .nullish(),
  errors: z
    .array(
      z.object({
        message: z.string(),
        extensions: z.object({ code: z.string().optional() }).passthrough().optional(),
      }),
    )
    .optional(),
  extensions: z.object({ cost: Cost.optional() }).passthrough().optional(),
});

/** `name.myshopify.com`; with private addresses allowed (tests, a proxy), any http(s) origin. */
export function shopifyEndpoint(shop: string, allowPrivate: boolean): string {
  const origin = shopOrigin(shop, allowPrivate);
  return `${origin}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;
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

function shopOrigin(shop: string, allowPrivate: boolean): string {
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
  token: string,
  allowPrivate: boolean,
): PlatformClient {
  const endpoint = shopifyEndpoint(shop, allowPrivate);
  let bucket: { needMs: number } = { needMs: 0 };

  async function query(variables: Record<string, unknown>, signal: AbortSignal) {
    await waitForRoom(bucket.needMs, signal);
    const res = await http.call(
      endpoint,
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-shopify-access-token": token },
        body: JSON.stringify({ query: ORDERS_QUERY, variables }),
      },
      signal,
    );
    const parsed = Answer.safeParse(safeJson(res.body));
    if (!parsed.success) throw transient("Shopify answered with an unreadable orders page");
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
    if (errors.some((e) => e.extensions?.code === "ACCESS_DENIED")) {
      throw new PlatformError({
        kind: "broken",
        message: `the token may not read orders (read_orders scope): ${errors[0]?.message}`,
      });
    }
    if (errors.length > 0 || !answer.data) {
      throw transient(`Shopify: ${errors.map((e) => e.message).join("; ") || "no data"}`);
    }
    return answer.data.orders;
  }

  return {
    async fetchPage(cursor: SyncCursor, signal: AbortSignal): Promise<OrdersPage> {
      const variables = {
        first: SHOPIFY_PAGE_SIZE,
        after: cursor.after,
        query: `updated_at:>='${cursor.since}'`,
      };
      const orders = await withWaits(() => query(variables, signal), signal);
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
  };
}

/** How long until the bucket holds what the last query asked for again. */
function refillMs(cost: Cost): number {
  const { currentlyAvailable, restoreRate, maximumAvailable } = cost.throttleStatus;
  const wanted = Math.min(cost.requestedQueryCost ?? 0, maximumAvailable);
  if (currentlyAvailable >= wanted || restoreRate <= 0) return 0;
  return Math.ceil(((wanted - currentlyAvailable) / restoreRate) * 1000);
}

export function mapShopifyOrder(node: OrderNode): PulledOrder {
  const billing = node.billingAddress;
  const customer = node.customer;
  const parsed = parseOrderRequest({
    email: node.email ?? customer?.email,
    firstName: billing?.firstName ?? customer?.firstName,
    lastName: billing?.lastName ?? customer?.lastName,
    phone: billing?.phone ?? node.phone ?? customer?.phone,
    address: billing
      ? {
          city: billing.city,
          state: billing.provinceCode,
          zipcode: billing.zip,
          country: billing.countryCodeV2,
        }
      : null,
    order: {
      id: node.legacyResourceId,
      number: node.name,
      total: node.totalPriceSet?.shopMoney.amount,
      currency: node.totalPriceSet?.shopMoney.currencyCode,
    },
  });
  const createdAt = Date.parse(node.createdAt);
  if (!parsed.ok)
    return { kind: "skip", externalId: node.legacyResourceId, reason: parsed.message };
  if (Number.isNaN(createdAt)) {
    return { kind: "skip", externalId: node.legacyResourceId, reason: "createdAt is not a date" };
  }
  return { kind: "order", externalId: node.legacyResourceId, submission: parsed.value, createdAt };
}

export function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
