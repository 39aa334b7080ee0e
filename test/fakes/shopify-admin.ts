/**
 * A fake Shopify Admin GraphQL API on loopback, speaking its wire format and applying its rules:
 * - `POST /admin/oauth/access_token` (form: grant_type=client_credentials, client_id,
 *   client_secret) → `{access_token, scope, expires_in}`, the client-credentials grant of Dev
 *   Dashboard apps; those tokens expire (`tokenTtlSeconds`, or `expireTokens()`), after which
 *   the API answers 401 as Shopify does. A fixed `shpat_` token never expires.
 * - `POST /admin/api/<version>/graphql.json` with `X-Shopify-Access-Token`, a JSON body
 *   `{query, variables}`: `orders(first, after, query, sortKey: UPDATED_AT)` with the
 *   `updated_at:>='…'` (or `>`) filter, opaque cursors (base64 JSON of the last sort value and
 *   id, as Shopify's are) and `pageInfo`; `ordersCount(query, limit) { count precision }`, which
 *   stops at `limit` (default 10,000, `null`: none) with precision AT_LEAST, as Shopify's count
 *   fields do; and `currentAppInstallation { accessScopes }`.
 * - Query cost as Shopify calculates it (shopify-query-cost.ts), charged to a leaky bucket
 *   (maximumAvailable, restoreRate per second) and reported in `extensions.cost`; a query the
 *   bucket cannot pay for is `THROTTLED`, one above the maximum `MAX_COST_EXCEEDED`.
 * - Without the `read_all_orders` scope only orders created in the last 60 days are returned.
 * - Without protected customer data access (`protectedCustomerData: false`) orders come WITH
 *   `ACCESS_DENIED` errors: the customer, e-mail, phone and addresses are null.
 * - The Admin API version in the URL falls forward to the oldest supported one once it is
 *   past its 12 months, named in `X-Shopify-API-Version` (shopify-version.ts).
 * - Webhook subscriptions (`webhookSubscriptionCreate`, `webhookSubscriptions`,
 *   `webhookSubscriptionDelete`: shopify-webhook-subscriptions.ts), and deliveries of the order
 *   events `placeOrder`, `updateOrder` and `cancelOrder` raise (shopify-order-events.ts,
 *   shopify-webhooks.ts). A mutation costs 10 points
 *   (https://shopify.dev/docs/api/usage/limits#graphql-admin-api-rate-limits).
 * Replies can be scripted (429 with Retry-After, any status).
 */
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type {
  FakeShopify,
  FakeShopifyOptions,
  ShopifyReply,
  ShopifyRequest,
} from "./shopify-admin-api.js";
import { orderEvents } from "./shopify-order-events.js";
import { ordersCount, ordersPage, type ShopifyOrderNode, withheld } from "./shopify-orders.js";
import { queryCost, THROTTLED_ERRORS } from "./shopify-query-cost.js";
import { servingVersion, versionInUrl } from "./shopify-version.js";
import { answerWebhooks, type FakeWebhookSubscription } from "./shopify-webhook-subscriptions.js";
import { createWebhookDeliverer } from "./shopify-webhooks.js";

export type {
  FakeShopify,
  FakeShopifyOptions,
  ShopifyReply,
  ShopifyRequest,
} from "./shopify-admin-api.js";
export { type ShopifyOrderNode, shopifyOrder } from "./shopify-orders.js";

const DAY_MS = 24 * 60 * 60 * 1000;

function readOrdersDenied(field: string) {
  return {
    message: `Access denied for ${field} field. Required access: \`read_orders\` access scope.`,
    path: [field],
    extensions: {
      code: "ACCESS_DENIED",
      documentation: "https://shopify.dev/api/usage/access-scopes",
    },
  };
}

/** A field argument, literal (`query: "…"`) or a variable (`query: $q`). */
function argument(query: string, variables: Record<string, unknown>, name: string): unknown {
  const m = new RegExp(`\\b${name}\\s*:\\s*(\\$\\w+|"(?:[^"\\\\]|\\\\.)*"|null|\\d+)`).exec(
    query.slice(query.indexOf("{")),
  );
  if (!m) return undefined;
  const v = m[1] as string;
  if (v.startsWith("$")) return variables[v.slice(1)];
  return JSON.parse(v);
}

/** `limit`: 10,000 when not given (the documented default), none when null. */
function countLimit(query: string, variables: Record<string, unknown>): number | null {
  const v = argument(query, variables, "limit");
  if (v === undefined) return 10_000;
  return v === null ? null : Number(v);
}

export async function startFakeShopify(options: FakeShopifyOptions = {}): Promise<FakeShopify> {
  const token = options.token ?? "shpat_fake_token_0123456789abcdef";
  const clientId = "3b1f0c2d9e8a7b6c5d4e3f2a1b0c9d8e";
  const clientSecret = "shpss_fake_client_secret_0123456789";
  const apiSecretKey = "fake_legacy_api_secret_key_0123456789abcdef";
  const subscriptions: FakeWebhookSubscription[] = [];
  const settings = {
    scopes: options.scopes ?? "read_orders,read_customers,read_all_orders",
    protectedCustomerData: options.protectedCustomerData ?? true,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 86_399,
  };
  /** Tokens the grant gave, with when each expires. */
  const granted = new Map<string, number>();
  const orders: ShopifyOrderNode[] = [];
  const requests: ShopifyRequest[] = [];
  const queue: ShopifyReply[] = [];
  const bucket = {
    maximumAvailable: options.maximumAvailable ?? 2000,
    restoreRate: options.restoreRate ?? 100,
    currentlyAvailable: options.maximumAvailable ?? 2000,
  };
  let refilledAt = Date.now();
  const refill = () => {
    const now = Date.now();
    bucket.currentlyAvailable = Math.min(
      bucket.maximumAvailable,
      bucket.currentlyAvailable + ((now - refilledAt) / 1000) * bucket.restoreRate,
    );
    refilledAt = now;
  };
  const cost = (requested: number, actual: number | null) => ({
    requestedQueryCost: requested,
    actualQueryCost: actual,
    throttleStatus: {
      maximumAvailable: bucket.maximumAvailable,
      currentlyAvailable: Math.floor(bucket.currentlyAvailable),
      restoreRate: bucket.restoreRate,
    },
  });
  const tokenValid = (t: string | undefined) =>
    t !== undefined && (t === token || (granted.get(t) ?? 0) > Date.now());

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        const served = versionInUrl(req.url);
        res.writeHead(status, {
          "content-type": "application/json; charset=utf-8",
          ...(served === null
            ? {}
            : { "x-shopify-api-version": servingVersion(served, Date.now()) }),
          ...headers,
        });
        res.end(typeof body === "string" ? body : JSON.stringify(body));
      };
      const raw = Buffer.concat(chunks).toString("utf8");
      const given = req.headers["x-shopify-access-token"];
      const tokenSent = Array.isArray(given) ? given[0] : given;
      if (req.method === "POST" && req.url === "/admin/oauth/access_token") {
        const form = new URLSearchParams(raw);
        const answered =
          form.get("grant_type") !== "client_credentials"
            ? 400
            : form.get("client_id") !== clientId || form.get("client_secret") !== clientSecret
              ? 401
              : 200;
        requests.push({ at: Date.now(), path: "token", token: undefined, variables: {}, answered });
        if (answered === 400) return send(400, { error: "unsupported_grant_type" });
        if (answered === 401) {
          return send(401, {
            error: "invalid_client",
            error_description: "Client authentication failed due to unknown client.",
          });
        }
        const issued = `shpat_${randomBytes(16).toString("hex")}`;
        granted.set(issued, Date.now() + settings.tokenTtlSeconds * 1000);
        return send(200, {
          access_token: issued,
          scope: settings.scopes,
          expires_in: settings.tokenTtlSeconds,
        });
      }
      let parsed: { query?: string; variables?: Record<string, unknown> } = {};
      try {
        parsed = JSON.parse(raw);
      } catch {
        // answered below as a query the fake does not serve
      }
      const asked = versionInUrl(req.url);
      const version =
        asked === null ? undefined : { asked, served: servingVersion(asked, Date.now()) };
      const record = (answered: ShopifyRequest["answered"], charged?: number) =>
        requests.push({
          at: Date.now(),
          path: "graphql",
          token: tokenSent,
          variables: parsed.variables ?? {},
          answered,
          cost: charged,
          version,
        });
      if (req.method !== "POST" || version === undefined) {
        requests.push({
          at: Date.now(),
          path: "other",
          token: tokenSent,
          variables: {},
          answered: 404,
        });
        return send(404, { errors: "Not Found" });
      }
      if (!tokenValid(tokenSent)) {
        record(401);
        return send(401, {
          errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
        });
      }
      const scripted = queue.shift();
      refill();
      const variables = parsed.variables ?? {};
      const query = parsed.query ?? "";
      const requested = /^\s*mutation\b/.test(query) ? 10 : queryCost(query, variables);
      if (scripted === undefined && requested > bucket.maximumAvailable) {
        record(200, requested);
        return send(200, {
          errors: [
            {
              message: `Query cost is ${requested}, which exceeds the single query max cost limit (${bucket.maximumAvailable}).`,
              extensions: {
                code: "MAX_COST_EXCEEDED",
                cost: requested,
                maxCost: bucket.maximumAvailable,
              },
            },
          ],
        });
      }
      if (
        scripted === "throttled" ||
        (scripted === undefined && bucket.currentlyAvailable < requested)
      ) {
        record("THROTTLED", requested);
        return send(200, {
          errors: THROTTLED_ERRORS,
          extensions: { cost: cost(requested, null) },
        });
      }
      if (scripted !== undefined) {
        record(scripted.status);
        return send(scripted.status, scripted.body ?? "", scripted.headers);
      }
      const scopes = settings.scopes.split(",");
      const webhooks = answerWebhooks(subscriptions, query, variables, {
        scopes,
        protectedCustomerData: settings.protectedCustomerData,
        apiVersion: version.served,
        signWith: tokenSent === token ? apiSecretKey : clientSecret,
      });
      if (webhooks !== null) {
        bucket.currentlyAvailable -= requested;
        record(200, requested);
        return send(200, { data: webhooks, extensions: { cost: cost(requested, requested) } });
      }
      if (/\bcurrentAppInstallation\b/.test(query)) {
        bucket.currentlyAvailable -= requested;
        record(200, requested);
        const accessScopes = scopes.map((handle) => ({ handle }));
        return send(200, {
          data: { currentAppInstallation: { accessScopes } },
          extensions: { cost: cost(requested, requested) },
        });
      }
      // Without read_all_orders, Shopify shows an app only the last 60 days of orders.
      const visible = scopes.includes("read_all_orders")
        ? orders
        : orders.filter((o) => Date.parse(o.createdAt) >= Date.now() - 60 * DAY_MS);
      if (/\bordersCount\s*\(/.test(query)) {
        if (!scopes.includes("read_orders")) {
          record(200, requested);
          return send(200, { data: null, errors: [readOrdersDenied("ordersCount")] });
        }
        bucket.currentlyAvailable -= requested;
        record(200, requested);
        const counted = ordersCount(
          visible,
          argument(query, variables, "query"),
          countLimit(query, variables),
        );
        return send(200, {
          data: { ordersCount: counted },
          extensions: { cost: cost(requested, requested) },
        });
      }
      if (
        !/\borders\s*\(/.test(query) ||
        !/sortKey:\s*UPDATED_AT/.test(query) ||
        !/pageInfo\s*\{[^}]*hasNextPage[^}]*endCursor/.test(query)
      ) {
        record(400);
        return send(200, {
          errors: [{ message: "the fake serves only the orders connection sorted by UPDATED_AT" }],
        });
      }
      if (!scopes.includes("read_orders")) {
        record(200, requested);
        return send(200, { data: null, errors: [readOrdersDenied("orders")] });
      }
      const page = ordersPage(
        visible,
        Number(variables.first ?? 0),
        variables.after,
        variables.query,
        query,
      );
      const actual = queryCost(query, variables, page.edges.length);
      bucket.currentlyAvailable -= actual; // Shopify refunds what the query did not use
      record(200, requested);
      if (!settings.protectedCustomerData)
        return send(200, withheld(page, cost(requested, actual)));
      send(200, { data: { orders: page }, extensions: { cost: cost(requested, actual) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const shopDomain = new URL(origin).host;
  const deliverer = createWebhookDeliverer(subscriptions, shopDomain, options.retryScale ?? 1);
  return {
    origin,
    shop: origin,
    shopDomain,
    token,
    clientId,
    clientSecret,
    apiSecretKey,
    orders,
    subscriptions,
    deliveries: deliverer.deliveries,
    ...orderEvents(orders, deliverer),
    dropNextDeliveries: (n) => deliverer.dropNextDeliveries(n),
    deleteSubscriptionsInAdmin: () => {
      subscriptions.splice(0, subscriptions.length);
    },
    deliveriesSettled: () => deliverer.settled(),
    requests,
    bucket,
    options: settings,
    reply: (...replies) => queue.push(...replies),
    expireTokens: () => {
      for (const t of granted.keys()) granted.set(t, 0);
    },
    close: () =>
      new Promise<void>((resolve) => {
        deliverer.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
