/**
 * A fake WooCommerce REST API v3 on loopback, speaking its wire format:
 * `GET /wp-json/wc/v3/orders` with HTTP basic auth (consumer key and secret), the query
 * parameters `modified_after` (with `dates_are_gmt=true`), `orderby=modified`, `order=asc`,
 * `per_page` and `page`, and the paging headers WordPress sends: `X-WP-Total`,
 * `X-WP-TotalPages` and `Link` (`rel="next"`, `rel="prev"`). Orders are WooCommerce's JSON
 * (`billing`, `date_created_gmt`, `date_modified_gmt` without a zone, `total` as a string).
 * A wrong key or secret is WooCommerce's 401; replies can be scripted.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface WooOrderJson {
  id: number;
  number: string;
  status: string;
  currency: string;
  total: string;
  date_created_gmt: string;
  date_modified_gmt: string;
  billing: {
    first_name: string;
    last_name: string;
    email: string;
    phone: string;
    city: string;
    state: string;
    postcode: string;
    country: string;
  };
}

export interface WooRequest {
  at: number;
  query: URLSearchParams;
  status: number;
}

export interface FakeWooCommerce {
  /** The site's address (what `--url` takes). */
  url: string;
  key: string;
  secret: string;
  orders: WooOrderJson[];
  requests: WooRequest[];
  reply(
    ...replies: Array<{ status: number; body?: string; headers?: Record<string, string> }>
  ): void;
  close(): Promise<void>;
}

let sequence = 5000;

/** WooCommerce's GMT dates: `2024-03-05T14:02:11`, no zone, no milliseconds. */
function gmt(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "");
}

export function wooOrder(
  email: string,
  at: Date,
  extra: { first?: string; last?: string; total?: string } = {},
): WooOrderJson {
  const id = ++sequence;
  return {
    id,
    number: String(id),
    status: "processing",
    currency: "USD",
    total: extra.total ?? "1250.00",
    date_created_gmt: gmt(at),
    date_modified_gmt: gmt(at),
    billing: {
      first_name: extra.first ?? "Grace",
      last_name: extra.last ?? "Hopper",
      email,
      phone: "",
      city: "Atherton",
      state: "CA",
      postcode: "94027",
      country: "US",
    },
  };
}

export function touchWooOrder(order: WooOrderJson, at = new Date()): void {
  order.date_modified_gmt = gmt(at);
}

export async function startFakeWooCommerce(): Promise<FakeWooCommerce> {
  const key = "ck_0123456789abcdef0123456789abcdef01234567";
  const secret = "cs_fedcba9876543210fedcba9876543210fedcba98";
  const orders: WooOrderJson[] = [];
  const requests: WooRequest[] = [];
  const queue: Array<{ status: number; body?: string; headers?: Record<string, string> }> = [];
  const expected = `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ at: Date.now(), query: url.searchParams, status });
      res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    if (req.method !== "GET" || url.pathname !== "/wp-json/wc/v3/orders") {
      return send(404, {
        code: "rest_no_route",
        message: "No route was found matching the URL and request method.",
        data: { status: 404 },
      });
    }
    if (req.headers.authorization !== expected) {
      return send(401, {
        code: "woocommerce_rest_cannot_view",
        message: "Sorry, you cannot list resources.",
        data: { status: 401 },
      });
    }
    const scripted = queue.shift();
    if (scripted) return send(scripted.status, scripted.body ?? "", scripted.headers);
    const q = url.searchParams;
    const perPage = Math.min(Number(q.get("per_page") ?? 10), 100);
    const page = Number(q.get("page") ?? 1);
    const after = q.get("modified_after");
    // modified_after is strict; dates_are_gmt=true compares with date_modified_gmt.
    const bound =
      after === null ? null : Date.parse(/Z$|[+-]\d\d:\d\d$/.test(after) ? after : `${after}Z`);
    const time = (o: WooOrderJson) => Date.parse(`${o.date_modified_gmt}Z`);
    const matching = orders
      .filter((o) => bound === null || time(o) > bound)
      .sort((a, b) => (q.get("orderby") === "modified" ? time(a) - time(b) : 0) || a.id - b.id);
    if (q.get("order") === "desc") matching.reverse();
    const total = matching.length;
    const totalPages = Math.ceil(total / perPage);
    const slice = matching.slice((page - 1) * perPage, page * perPage);
    const link = (p: number) => {
      const u = new URL(`${origin}/wp-json/wc/v3/orders`);
      for (const [k, v] of q) u.searchParams.set(k, v);
      u.searchParams.set("page", String(p));
      return `<${u}>`;
    };
    const links = [
      ...(page > 1 ? [`${link(page - 1)}; rel="prev"`] : []),
      ...(page < totalPages ? [`${link(page + 1)}; rel="next"`] : []),
    ];
    send(200, slice, {
      "x-wp-total": String(total),
      "x-wp-totalpages": String(totalPages),
      ...(links.length > 0 ? { link: links.join(", ") } : {}),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    key,
    secret,
    orders,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
