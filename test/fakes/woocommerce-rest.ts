/**
 * A fake WooCommerce REST API v3 on loopback, speaking its wire format and applying WordPress's
 * rules:
 * - The site has a time zone (`utcOffsetMinutes`: +9 h, +5:30, −5 h…). With `dates_are_gmt=true`
 *   the `modified_after` (and `after`, on the creation date) bound is compared with the GMT column; a bound that carries a zone
 *   (`…Z`, `+02:00`) is first turned into the SITE's local time, as WordPress's date parsing
 *   does, so the bound moves by the site's offset. A bound without a zone is taken as given.
 * - Every order status (pending, processing, on-hold, completed, cancelled, refunded, failed,
 *   trash, checkout-draft); the default `status=any` lists all but `trash`.
 * - Authentication: basic auth, or `consumer_key`/`consumer_secret` in the query string (what
 *   WooCommerce accepts over HTTPS; the fake stands behind the TLS proxy). `stripsAuthorization`
 *   plays a host that drops the Authorization header: WooCommerce then answers 401.
 * - `plainPermalinks`: the site has no `/wp-json/` (a WordPress 404 page); the API answers at
 *   `/?rest_route=/wc/v3/orders`.
 * The rest, as before:
 * `GET /wp-json/wc/v3/orders` with HTTP basic auth (consumer key and secret), the query
 * parameters `modified_after` (with `dates_are_gmt=true`), `orderby=modified`, `order=asc`,
 * `per_page` and `page`, and the paging headers WordPress sends: `X-WP-Total`,
 * `X-WP-TotalPages` and `Link` (`rel="next"`, `rel="prev"`); `per_page` outside 1–100 is
 * WordPress's 400 `rest_invalid_param`, never quietly capped. Orders are WooCommerce's JSON
 * (`billing` and `shipping`, each always present with "" for what is missing, as in
 * https://woocommerce.github.io/woocommerce-rest-api-docs/#order-properties; `date_created_gmt`,
 * `date_modified_gmt` without a zone, `total` as a string).
 * A wrong key or secret is WooCommerce's 401; replies can be scripted.
 * Keys: `keyPermissions` "read" plays a Read-only key: every POST, PUT, PATCH and DELETE is
 * WooCommerce's 401 "The API key provided does not have write permissions."
 * (plugins/woocommerce/includes/class-wc-rest-authentication.php, check_permissions).
 * Webhooks: `/wc/v3/webhooks` and the deliveries of `placeOrder` / `updateOrder`, in
 * woocommerce-webhooks.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { touchWooOrder, type WooOrderJson } from "./woocommerce-order-json.js";
import type {
  FakeWooWebhook,
  WooDelivery,
  WooWebhookStatus,
} from "./woocommerce-webhook-delivery.js";
import { createFakeWooWebhooks } from "./woocommerce-webhooks.js";

export {
  setWooOrderStatus,
  touchWooOrder,
  WOO_STATUSES,
  type WooOrderJson,
  wooOrder,
} from "./woocommerce-order-json.js";

export interface WooRequest {
  at: number;
  method: string;
  route: string | null;
  query: URLSearchParams;
  status: number;
}

export interface FakeWooCommerceOptions {
  /** The site's time zone as an offset from UTC, in minutes. Default 0. */
  utcOffsetMinutes?: number;
  stripsAuthorization?: boolean;
  plainPermalinks?: boolean;
  /** The key's permissions as set in WooCommerce › Settings › Advanced › REST API. */
  keyPermissions?: "read" | "write" | "read_write";
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
  /** The webhooks the site holds (as WooCommerce stores them: secret, failure count…). */
  webhooks: FakeWooWebhook[];
  /** Every ping and delivery attempt, with what the receiver answered. */
  deliveries: WooDelivery[];
  /** A new order: added to the list the API reads, and `order.created` delivered. */
  placeOrder(order: WooOrderJson): void;
  /** An order changed (status…): `date_modified_gmt` moves to now, `order.updated` delivered. */
  updateOrder(id: number, changes: Partial<WooOrderJson>): WooOrderJson;
  /** The next n deliveries are lost on the way (WooCommerce sees a network error). */
  dropNextDeliveries(n: number): void;
  /** What a merchant (or WooCommerce) does in the admin. */
  setWebhookStatus(id: number, status: WooWebhookStatus): void;
  deleteWebhook(id: number): void;
  /** Resolves when every queued ping and delivery has been answered. */
  deliveriesSettled(): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeWooCommerce(
  options: FakeWooCommerceOptions = {},
): Promise<FakeWooCommerce> {
  const offsetMs = (options.utcOffsetMinutes ?? 0) * 60_000;
  const key = "ck_0123456789abcdef0123456789abcdef01234567";
  const secret = "cs_fedcba9876543210fedcba9876543210fedcba98";
  const orders: WooOrderJson[] = [];
  const requests: WooRequest[] = [];
  const queue: Array<{ status: number; body?: string; headers?: Record<string, string> }> = [];
  const expected = `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;

  const permissions = options.keyPermissions ?? "read_write";
  const hooks = createFakeWooWebhooks(() => origin);
  const restOrder = (o: WooOrderJson) => ({
    ...o,
    date_created: local(o.date_created_gmt),
    date_modified: local(o.date_modified_gmt),
  });
  const local = (gmtText: string) =>
    new Date(Date.parse(`${gmtText}Z`) + offsetMs).toISOString().slice(0, 19);

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(req, res, Buffer.concat(chunks).toString("utf8")).catch((error: unknown) => {
        res.writeHead(500, { "content-type": "text/plain" });
        res.end(String(error));
      });
    });
  });
  async function handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? "/", "http://fake");
    const method = req.method ?? "GET";
    let route: string | null = null;
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      requests.push({ at: Date.now(), method, route, query: url.searchParams, status });
      res.writeHead(status, { "content-type": "application/json; charset=UTF-8", ...headers });
      res.end(typeof body === "string" ? body : JSON.stringify(body));
    };
    route = options.plainPermalinks
      ? url.pathname === "/"
        ? url.searchParams.get("rest_route")
        : null
      : url.pathname.startsWith("/wp-json/")
        ? url.pathname.slice("/wp-json".length)
        : url.pathname === "/"
          ? url.searchParams.get("rest_route")
          : null;
    if (route === null) {
      requests.push({ at: Date.now(), method, route, query: url.searchParams, status: 404 });
      res.writeHead(404, { "content-type": "text/html; charset=UTF-8" });
      return res.end(
        "<!doctype html><title>Page not found</title><h1>Oops! That page can't be found.</h1>",
      );
    }
    const isWebhooks = /^\/wc\/v3\/webhooks(\/\d+)?$/.test(route);
    if (!isWebhooks && (method !== "GET" || route !== "/wc/v3/orders")) {
      return send(404, {
        code: "rest_no_route",
        message: "No route was found matching the URL and request method.",
        data: { status: 404 },
      });
    }
    const header = options.stripsAuthorization ? undefined : req.headers.authorization;
    const queryKey = url.searchParams.get("consumer_key");
    if (header === undefined && queryKey === null) {
      return send(401, {
        code: "woocommerce_rest_authentication_error",
        message: "Consumer key is missing.",
        data: { status: 401 },
      });
    }
    const authorized =
      header !== undefined
        ? header === expected
        : queryKey === key && url.searchParams.get("consumer_secret") === secret;
    if (!authorized) {
      return send(401, {
        code: "woocommerce_rest_cannot_view",
        message: "Sorry, you cannot list resources.",
        data: { status: 401 },
      });
    }
    // The key's own permissions, checked before any route runs (check_permissions).
    const reading = method === "GET" || method === "HEAD";
    if (reading ? permissions === "write" : permissions === "read") {
      return send(401, {
        code: "woocommerce_rest_authentication_error",
        message: `The API key provided does not have ${reading ? "read" : "write"} permissions.`,
        data: { status: 401 },
      });
    }
    const scripted = queue.shift();
    if (scripted) return send(scripted.status, scripted.body ?? "", scripted.headers);
    if (isWebhooks) {
      const answer = await hooks.handle(method, route, url.searchParams, raw);
      if (answer !== null) return send(answer.status, answer.body, answer.headers);
    }
    const q = url.searchParams;
    // WordPress validates per_page against its schema (1 to 100) and refuses anything else.
    const perPage = Number(q.get("per_page") ?? 10);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return send(400, {
        code: "rest_invalid_param",
        message: "Invalid parameter(s): per_page",
        data: {
          status: 400,
          params: { per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)" },
        },
      });
    }
    const page = Number(q.get("page") ?? 1);
    // modified_after and after are strict. A bound with a zone becomes the site's local wall
    // time first (WordPress's date parsing); with dates_are_gmt=true that wall time is then
    // compared with the GMT column as if it were GMT. Without dates_are_gmt, the local column is
    // compared.
    const gmtColumn = q.get("dates_are_gmt") === "true";
    const boundOf = (given: string | null): number | null => {
      if (given === null) return null;
      const zoned = /[zZ]$|[+-]\d\d:?\d\d$/.test(given);
      const wall = zoned ? Date.parse(given) + offsetMs : Date.parse(`${given}Z`);
      return gmtColumn ? wall : wall - offsetMs;
    };
    const modifiedAfter = boundOf(q.get("modified_after"));
    const createdAfter = boundOf(q.get("after"));
    const statuses = (q.get("status") ?? "any").split(",");
    const listed = (o: WooOrderJson) =>
      statuses.includes("any") ? o.status !== "trash" : statuses.includes(o.status);
    const time = (o: WooOrderJson) => Date.parse(`${o.date_modified_gmt}Z`);
    const created = (o: WooOrderJson) => Date.parse(`${o.date_created_gmt}Z`);
    const matching = orders
      .filter(
        (o) =>
          listed(o) &&
          (modifiedAfter === null || time(o) > modifiedAfter) &&
          (createdAfter === null || created(o) > createdAfter),
      )
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
    send(200, slice.map(restOrder), {
      "x-wp-total": String(total),
      "x-wp-totalpages": String(totalPages),
      ...(links.length > 0 ? { link: links.join(", ") } : {}),
    });
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    key,
    secret,
    orders,
    requests,
    reply: (...replies) => queue.push(...replies),
    webhooks: hooks.webhooks,
    deliveries: hooks.deliveries,
    placeOrder(order) {
      orders.push(order);
      hooks.emit("order.created", () => restOrder(order));
    },
    updateOrder(id, changes) {
      const order = orders.find((o) => o.id === id);
      if (order === undefined) throw new Error(`no order ${id} in the fake WooCommerce`);
      Object.assign(order, changes);
      touchWooOrder(order);
      hooks.emit("order.updated", () => restOrder(order));
      return order;
    },
    dropNextDeliveries: (n) => hooks.dropNextDeliveries(n),
    setWebhookStatus(id, status) {
      const hook = hooks.webhooks.find((w) => w.id === id);
      if (hook === undefined) throw new Error(`no webhook ${id} in the fake WooCommerce`);
      hook.status = status;
    },
    deleteWebhook(id) {
      const at = hooks.webhooks.findIndex((w) => w.id === id);
      if (at >= 0) hooks.webhooks.splice(at, 1);
    },
    deliveriesSettled: () => hooks.settled(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
