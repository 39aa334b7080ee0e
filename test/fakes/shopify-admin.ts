/**
 * A fake Shopify Admin GraphQL API on loopback, speaking its wire format:
 * `POST /admin/api/<version>/graphql.json` with `X-Shopify-Access-Token`, a JSON body
 * `{query, variables}`. It reads the query enough to serve `orders(first, after, query,
 * sortKey: UPDATED_AT)`: the `updated_at:>='…'` (or `>`) filter, edges with opaque cursors
 * (base64 JSON of the last sort value and id, as Shopify's are) and `pageInfo {hasNextPage
 * endCursor}`. Every answer carries `extensions.cost` from a real leaky bucket
 * (maximumAvailable, restoreRate per second); a query the bucket cannot pay for is answered
 * `THROTTLED` exactly as Shopify does. A wrong token is a 401; replies can be scripted (429 with
 * Retry-After, any status).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface ShopifyOrderNode {
  legacyResourceId: string;
  name: string;
  email: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  customer: {
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    phone: string | null;
  } | null;
  billingAddress: {
    firstName: string | null;
    lastName: string | null;
    phone: string | null;
    city: string | null;
    provinceCode: string | null;
    zip: string | null;
    countryCodeV2: string | null;
  } | null;
}

export type ShopifyReply =
  | { status: number; body?: string; headers?: Record<string, string> }
  | "throttled";

export interface ShopifyRequest {
  at: number;
  token: string | undefined;
  variables: Record<string, unknown>;
  /** What the fake answered: 200, "THROTTLED", or the scripted status. */
  answered: number | "THROTTLED";
}

export interface FakeShopify {
  origin: string;
  /** What `--shop` takes in tests (private addresses allowed). */
  shop: string;
  token: string;
  orders: ShopifyOrderNode[];
  requests: ShopifyRequest[];
  /** Queues replies for the next requests, in order, before any order query is answered. */
  reply(...replies: ShopifyReply[]): void;
  bucket: { maximumAvailable: number; restoreRate: number; currentlyAvailable: number };
  close(): Promise<void>;
}

export interface FakeShopifyOptions {
  token?: string;
  maximumAvailable?: number;
  restoreRate?: number;
}

let sequence = 1000;

/** An order node as the Admin API returns it; `at` dates both createdAt and updatedAt. */
export function shopifyOrder(
  email: string | null,
  at: Date,
  extra: Partial<ShopifyOrderNode> & { first?: string; last?: string; total?: string } = {},
): ShopifyOrderNode {
  const id = String(++sequence);
  const { first = "Grace", last = "Hopper", total = "1250.00", ...rest } = extra;
  return {
    legacyResourceId: id,
    name: `#${id}`,
    email,
    phone: null,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    totalPriceSet: { shopMoney: { amount: total, currencyCode: "USD" } },
    customer: { firstName: first, lastName: last, email, phone: null },
    billingAddress: {
      firstName: first,
      lastName: last,
      phone: null,
      city: "Atherton",
      provinceCode: "CA",
      zip: "94027",
      countryCodeV2: "US",
    },
    ...rest,
  };
}

export async function startFakeShopify(options: FakeShopifyOptions = {}): Promise<FakeShopify> {
  const token = options.token ?? "shpat_fake_token_0123456789abcdef";
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

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
        res.end(typeof body === "string" ? body : JSON.stringify(body));
      };
      const given = req.headers["x-shopify-access-token"];
      const tokenSent = Array.isArray(given) ? given[0] : given;
      let parsed: { query?: string; variables?: Record<string, unknown> } = {};
      try {
        parsed = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        // answered 400 below
      }
      const record = (answered: ShopifyRequest["answered"]) =>
        requests.push({
          at: Date.now(),
          token: tokenSent,
          variables: parsed.variables ?? {},
          answered,
        });
      if (
        req.method !== "POST" ||
        !/^\/admin\/api\/\d{4}-\d{2}\/graphql\.json$/.test(req.url ?? "")
      ) {
        record(404);
        return send(404, { errors: "Not Found" });
      }
      if (tokenSent !== token) {
        record(401);
        return send(401, {
          errors: "[API] Invalid API key or access token (unrecognized login or wrong password)",
        });
      }
      const scripted = queue.shift();
      refill();
      const variables = parsed.variables ?? {};
      const first = Number(variables.first ?? 0);
      const requested = first + 2;
      if (
        scripted === "throttled" ||
        (scripted === undefined && bucket.currentlyAvailable < requested)
      ) {
        record("THROTTLED");
        return send(200, {
          errors: [
            {
              message: "Throttled",
              extensions: {
                code: "THROTTLED",
                documentation: "https://shopify.dev/api/usage/rate-limits",
              },
            },
          ],
          extensions: { cost: cost(requested, null) },
        });
      }
      if (scripted !== undefined) {
        record(scripted.status);
        return send(scripted.status, scripted.body ?? "", scripted.headers);
      }
      const query = parsed.query ?? "";
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
      const page = ordersPage(orders, first, variables.after, variables.query);
      bucket.currentlyAvailable -= requested;
      const actual = page.edges.length + 2;
      bucket.currentlyAvailable += requested - actual; // Shopify refunds the difference
      record(200);
      send(200, { data: { orders: page }, extensions: { cost: cost(requested, actual) } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    shop: origin,
    token,
    orders,
    requests,
    bucket,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function ordersPage(all: ShopifyOrderNode[], first: number, after: unknown, search: unknown) {
  const filter = /updated_at:(>=?)'([^']+)'/.exec(typeof search === "string" ? search : "");
  const key = (o: ShopifyOrderNode) =>
    [Date.parse(o.updatedAt), Number(o.legacyResourceId)] as const;
  const sorted = [...all]
    .filter((o) => {
      if (!filter) return true;
      const bound = Date.parse(filter[2] as string);
      const t = Date.parse(o.updatedAt);
      return filter[1] === ">=" ? t >= bound : t > bound;
    })
    .sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
  let start = 0;
  if (typeof after === "string") {
    const c = JSON.parse(Buffer.from(after, "base64").toString("utf8")) as {
      last_id: number;
      last_value: number;
    };
    start = sorted.findIndex((o) => {
      const [t, id] = key(o);
      return t > c.last_value || (t === c.last_value && id > c.last_id);
    });
    if (start < 0) start = sorted.length;
  }
  const slice = sorted.slice(start, start + first);
  const cursorOf = (o: ShopifyOrderNode) => {
    const [t, id] = key(o);
    return Buffer.from(JSON.stringify({ last_id: id, last_value: t })).toString("base64");
  };
  const edges = slice.map((node) => ({ cursor: cursorOf(node), node }));
  const lastEdge = edges.at(-1);
  return {
    edges,
    pageInfo: {
      hasNextPage: start + first < sorted.length,
      endCursor: lastEdge ? lastEdge.cursor : null,
    },
  };
}
