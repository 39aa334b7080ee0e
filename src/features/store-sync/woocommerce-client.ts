/**
 * WooCommerce's REST API v3: `GET {site}/wp-json/wc/v3/orders?modified_after=…&dates_are_gmt=
 * true&orderby=modified&order=asc&per_page=…&page=…`, HTTP basic auth with the consumer key and
 * secret, over HTTPS only (plain http only with WEBHOOKS_ALLOW_PRIVATE=true, for tests).
 *
 * Time: `modified_after` is the GMT time WITHOUT a zone. WordPress turns a date that carries a
 * zone (`…Z`) into the site's local time before comparing it with the GMT column, which moves
 * the bound by the site's offset (east of UTC: orders lost; west: pages read again and again).
 *
 * Requests (authentication, "Plain" permalink sites) go through woocommerce-http.ts; each order
 * is mapped by woocommerce-order.ts (pending, failed and checkout drafts skipped).
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
import { type PlatformHttp, transient } from "./platform-http.js";
import { safeJson } from "./shopify-client.js";
import {
  laterOf,
  nextPassSince,
  type OrderCount,
  type OrdersPage,
  type PlatformClient,
  type SyncCursor,
} from "./store-platform.js";
import { withWaits } from "./wait-politely.js";
import {
  createWooCommerceHttp,
  hasNextPage,
  header,
  type WooCredentials,
} from "./woocommerce-http.js";
import { mapWooOrder, WooOrder, wooGmt } from "./woocommerce-order.js";

export const WOO_PAGE_SIZE = 50;

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
  const woo = createWooCommerceHttp(http, site, credentials, onCredentials);
  const callFinding = (params: URLSearchParams, signal: AbortSignal) =>
    woo.request("GET", "/wc/v3/orders", params, signal);

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
        maxSeen = laterOf(maxSeen, new Date(wooGmt(order.date_modified_gmt)).toISOString());
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
