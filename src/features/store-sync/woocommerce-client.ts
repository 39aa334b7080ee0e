/**
 * WooCommerce's REST API v3: `GET {site}/wp-json/wc/v3/orders?modified_after=…&dates_are_gmt=
 * true&orderby=modified&order=asc&per_page=…&page=…`, HTTP basic auth with the consumer key and
 * secret, over HTTPS only (plain http only with WEBHOOKS_ALLOW_PRIVATE=true, for tests).
 *
 * Time: `modified_after` is the GMT time WITHOUT a zone. WordPress turns a date that carries a
 * zone (`…Z`) into the site's local time before comparing it with the GMT column, which moves
 * the bound by the site's offset (east of UTC: orders lost; west: pages read again and again).
 *
 * Hosts: when the server strips the Authorization header (WooCommerce then answers 401), the
 * key and secret go in the query string (`consumer_key`, `consumer_secret`), which WooCommerce
 * accepts over HTTPS; a site on "Plain" permalinks has no `/wp-json/` (404) and is asked at
 * `/?rest_route=/wc/v3/orders`. What worked is saved with the credentials.
 *
 * Only real orders: `checkout-draft` (a cart at checkout), `pending` (awaiting payment) and
 * `failed` orders are skipped and counted; when one is paid later its modification brings it
 * back into a pass, and it is taken then.
 *
 * Address: the order's `billing`, or its `shipping` when the billing postcode is empty (both
 * are in every order, https://woocommerce.github.io/woocommerce-rest-api-docs/#order-properties).
 *
 * Paging: page numbers shift when an order is modified while we read (it moves to the end), so
 * a pass does not walk page 2, 3…: after each page it asks page 1 again, modified after the
 * page's last order (less a second, so equal timestamps are not lost; the repeats are already
 * stored and skipped). Only when a whole page shares that second does it go on to the next page
 * number. The end of the pass is `X-WP-TotalPages` (or the `Link` header's `rel="next"`).
 */
import { z } from "zod";
import { AppError } from "../../lib/app-error.js";
import { isStandardPort } from "../../lib/outbound/ssrf-guard.js";
import { customerAddress } from "../orders/order-address.js";
import { parseOrderRequest } from "../orders/order-request.js";
import type { Credentials } from "./credentials.js";
import { wooOrderStatus } from "./order-status.js";
import {
  PlatformError,
  type PlatformHttp,
  type PlatformResponse,
  transient,
} from "./platform-http.js";
import { safeJson } from "./shopify-client.js";
import {
  laterOf,
  nextPassSince,
  type OrderCount,
  type OrdersPage,
  type PlatformClient,
  type PulledOrder,
  type SkipReason,
  type SyncCursor,
} from "./store-platform.js";
import { withWaits } from "./wait-politely.js";

export const WOO_PAGE_SIZE = 50;

type WooCredentials = Extract<Credentials, { platform: "woocommerce" }>;

/** Orders that are not (yet) a purchase: skipped, and taken once they change into one. */
const NOT_PLACED: Record<string, SkipReason> = {
  "checkout-draft": "checkout draft",
  pending: "awaiting payment",
  failed: "payment failed",
};

const text = z.string().nullish();
const WooOrder = z.object({
  id: z.number(),
  number: text,
  status: text,
  currency: text,
  total: text,
  date_created_gmt: z.string(),
  date_modified_gmt: z.string(),
  billing: z
    .object({
      first_name: text,
      last_name: text,
      email: text,
      phone: text,
      city: text,
      state: text,
      postcode: text,
      country: text,
    })
    .nullish(),
  shipping: z.object({ city: text, state: text, postcode: text, country: text }).nullish(),
});
type WooOrder = z.infer<typeof WooOrder>;

/** The site's address: https only, unless private addresses are allowed (tests). */
export function normalizeSiteUrl(url: string, allowPrivate: boolean): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new AppError(
      "bad_request",
      `The store's address must be a web address, such as https://shop.example (got "${url}")`,
    );
  }
  if (parsed.protocol !== "https:" && !(allowPrivate && parsed.protocol === "http:")) {
    throw new AppError(
      "bad_request",
      "The store's address must start with https://: WooCommerce's consumer key and secret are sent with every request",
    );
  }
  if (!allowPrivate && !isStandardPort(parsed.protocol, parsed.port)) {
    throw new AppError("bad_request", "--url must use the standard https port (443)");
  }
  if (parsed.username || parsed.password || parsed.search || parsed.hash) {
    throw new AppError(
      "bad_request",
      "The store's address must be the address only, without a user name, password or query",
    );
  }
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, "")}`;
}

/** WooCommerce's GMT dates have no zone ("2024-03-05T14:02:11"): they are UTC. */
function gmt(text: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}

/** The GMT instant as WordPress must receive it: `2026-03-05T14:02:11`, no zone, no fraction. */
export function wooGmtBound(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19);
}

export function createWooCommerceClient(
  http: PlatformHttp,
  site: string,
  credentials: WooCredentials,
  onCredentials?: (credentials: WooCredentials) => void | Promise<void>,
): PlatformClient {
  const { key, secret } = credentials;
  const authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;
  let mode = {
    queryAuth: credentials.queryAuth ?? false,
    plainRoute: credentials.plainRoute ?? false,
  };

  async function call(params: URLSearchParams, signal: AbortSignal, tried: typeof mode) {
    const query = new URLSearchParams(params);
    // The site's address is https (normalizeSiteUrl; http only for loopback tests), so the key
    // in the query string travels encrypted, as WooCommerce requires for this form.
    if (tried.queryAuth) {
      query.set("consumer_key", key);
      query.set("consumer_secret", secret);
    }
    const url = tried.plainRoute
      ? `${site}/?rest_route=/wc/v3/orders&${query}`
      : `${site}/wp-json/wc/v3/orders?${query}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (!tried.queryAuth) headers.authorization = authorization;
    return http.call(url, { method: "GET", headers }, signal);
  }

  /** The call as saved; on a 404 or 401, the other route or authentication once each. */
  async function callFinding(params: URLSearchParams, signal: AbortSignal) {
    let tried = mode;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await call(params, signal, tried);
        if (tried !== mode) {
          mode = tried;
          await onCredentials?.({ ...credentials, ...mode });
        }
        return res;
      } catch (error) {
        const status =
          error instanceof PlatformError && error.failure.kind === "broken"
            ? error.failure.status
            : undefined;
        if (attempt >= 2 || status === undefined) throw error;
        if (status === 404 && !tried.plainRoute && attempt === 0) {
          tried = { ...tried, plainRoute: true };
        } else if (status === 401 && !tried.queryAuth) {
          tried = { ...tried, queryAuth: true };
        } else throw error;
      }
    }
  }

  async function get(cursor: SyncCursor, page: number, signal: AbortSignal) {
    const params = new URLSearchParams({
      modified_after: wooGmtBound(cursor.since),
      dates_are_gmt: "true",
      orderby: "modified",
      order: "asc",
      per_page: String(WOO_PAGE_SIZE),
      page: String(page),
    });
    const res = await callFinding(params, signal);
    const parsed = z.array(WooOrder).safeParse(safeJson(res.body));
    if (!parsed.success) throw transient("WooCommerce answered with an unreadable orders page");
    return { orders: parsed.data, more: hasNextPage(res, page) };
  }

  return {
    /**
     * WordPress's own count: `X-WP-Total` on a page of one, with the pass's bound and status
     * (every status but trash, as a pass reads).
     */
    async countOrders(since: string, signal: AbortSignal): Promise<OrderCount> {
      const params = new URLSearchParams({
        modified_after: wooGmtBound(since),
        dates_are_gmt: "true",
        per_page: "1",
      });
      const res = await withWaits(() => callFinding(params, signal), signal);
      const said = header(res, "x-wp-total");
      const count = Number(said);
      if (said === undefined || !Number.isInteger(count) || count < 0) {
        throw transient("WooCommerce did not say how many orders there are (no X-WP-Total)");
      }
      return { count, precision: "exact" };
    },
    async fetchPage(cursor: SyncCursor, signal: AbortSignal): Promise<OrdersPage> {
      const page = cursor.after === null ? 1 : Number(cursor.after);
      const { orders, more } = await withWaits(() => get(cursor, page, signal), signal);
      let maxSeen = cursor.maxSeen;
      const pulled = orders.map((order) => {
        maxSeen = laterOf(maxSeen, new Date(gmt(order.date_modified_gmt)).toISOString());
        return mapWooOrder(order);
      });
      if (!more || maxSeen === null) {
        return {
          orders: pulled,
          next: { since: nextPassSince(maxSeen, cursor.since), after: null, maxSeen: null },
          last: true,
        };
      }
      const since = nextPassSince(maxSeen, cursor.since);
      // The whole page shares one second: page 1 again would be this page; go on to the next.
      const next: SyncCursor =
        since === cursor.since
          ? { since, after: String(page + 1), maxSeen }
          : { since, after: null, maxSeen };
      return { orders: pulled, next, last: false };
    },
  };
}

function hasNextPage(res: PlatformResponse, page: number): boolean {
  const total = Number(header(res, "x-wp-totalpages"));
  if (Number.isFinite(total) && header(res, "x-wp-totalpages") !== undefined) return page < total;
  return /rel="next"/.test(header(res, "link") ?? "");
}

function header(res: PlatformResponse, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export function mapWooOrder(order: WooOrder): PulledOrder {
  const id = String(order.id);
  const updatedAt = gmt(order.date_modified_gmt);
  const notPlaced = NOT_PLACED[order.status ?? ""];
  if (notPlaced !== undefined) {
    return {
      kind: "skip",
      externalId: id,
      updatedAt,
      reason: notPlaced,
      detail: `status ${order.status}`,
    };
  }
  const b = order.billing;
  const parsed = parseOrderRequest({
    email: b?.email,
    firstName: b?.first_name,
    lastName: b?.last_name,
    phone: b?.phone,
    // The shipping address when the billing one has no postcode (orders/order-address.ts).
    address: customerAddress(addressOf(b), addressOf(order.shipping)),
    order: { id, number: order.number, total: order.total, currency: order.currency },
  });
  const createdAt = gmt(order.date_created_gmt);
  if (!parsed.ok) {
    const reason = "incomplete customer data";
    return { kind: "skip", externalId: id, updatedAt, reason, detail: parsed.message };
  }
  if (Number.isNaN(createdAt)) {
    const detail = "date_created_gmt is not a date";
    return { kind: "skip", externalId: id, updatedAt, reason: "incomplete customer data", detail };
  }
  return {
    kind: "order",
    externalId: id,
    submission: parsed.value,
    createdAt,
    updatedAt,
    ...wooOrderStatus(order.status),
  };
}

function addressOf(
  a:
    | {
        city?: string | null;
        state?: string | null;
        postcode?: string | null;
        country?: string | null;
      }
    | null
    | undefined,
) {
  return a == null
    ? null
    : { city: a.city, state: a.state, zipcode: a.postcode, country: a.country };
}
