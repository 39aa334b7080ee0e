/**
 * How Velvet talks to one WooCommerce site's REST API, whatever it asks for (orders, webhooks):
 * HTTP basic auth with the consumer key and secret over HTTPS (plain http only with
 * WEBHOOKS_ALLOW_PRIVATE=true, for tests), JSON in and out, a failure as a PlatformError
 * (platform-http.ts).
 *
 * Hosts: when the server strips the Authorization header (WooCommerce then answers 401), the
 * key and secret go in the query string (`consumer_key`, `consumer_secret`), which WooCommerce
 * accepts over HTTPS; a site on "Plain" permalinks has no `/wp-json/` (404) and is asked at
 * `/?rest_route=/wc/v3/…`. What worked is saved with the credentials (`onCredentials`).
 *
 * A 404 that is the REST API's own answer about a resource (a webhook id that does not exist)
 * proves the route and the authentication work: it is not a reason to try the other route.
 */
import { z } from "zod";
import type { Credentials } from "./credentials.js";
import {
  PlatformError,
  type PlatformHttp,
  type PlatformMethod,
  type PlatformResponse,
} from "./platform-http.js";

export type WooCredentials = Extract<Credentials, { platform: "woocommerce" }>;

export interface WooCommerceHttp {
  /**
   * `route` is the REST route (`/wc/v3/orders`, `/wc/v3/webhooks/12`); `body` is sent as JSON.
   * Answers a 2xx response; anything else throws PlatformError.
   */
  request(
    method: PlatformMethod,
    route: string,
    params: URLSearchParams,
    signal: AbortSignal,
    body?: unknown,
  ): Promise<PlatformResponse>;
}

/** WordPress's REST error body: `{"code": "rest_no_route", "message": "…", "data": {…}}`. */
const WpError = z.object({ code: z.string(), message: z.string().optional() });
export type WooError = { status: number; code: string; message: string };

/** The WordPress error a PlatformError carries, when the REST API itself answered with one. */
export function wooErrorOf(error: unknown): WooError | null {
  if (!(error instanceof PlatformError) || error.failure.kind !== "broken") return null;
  const { status, body } = error.failure;
  if (status === undefined || body === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return null;
  }
  const wp = WpError.safeParse(parsed);
  return wp.success ? { status, code: wp.data.code, message: wp.data.message ?? "" } : null;
}

/**
 * A 404 from the REST API about a resource (`woocommerce_rest_shop_webhook_invalid_id`), not
 * WordPress's `rest_no_route` or a theme's HTML "page not found": the route is there.
 */
function answeredByTheApi(error: unknown): boolean {
  const wp = wooErrorOf(error);
  return wp !== null && wp.status === 404 && wp.code !== "rest_no_route";
}

export function createWooCommerceHttp(
  http: PlatformHttp,
  site: string,
  credentials: WooCredentials,
  onCredentials?: (credentials: WooCredentials) => void | Promise<void>,
): WooCommerceHttp {
  const { key, secret } = credentials;
  const authorization = `Basic ${Buffer.from(`${key}:${secret}`).toString("base64")}`;
  let mode = {
    queryAuth: credentials.queryAuth ?? false,
    plainRoute: credentials.plainRoute ?? false,
  };

  async function call(
    method: PlatformMethod,
    route: string,
    params: URLSearchParams,
    signal: AbortSignal,
    body: unknown,
    tried: typeof mode,
  ) {
    const query = new URLSearchParams(params);
    // The site's address is https (normalizeSiteUrl; http only for loopback tests), so the key
    // in the query string travels encrypted, as WooCommerce requires for this form.
    if (tried.queryAuth) {
      query.set("consumer_key", key);
      query.set("consumer_secret", secret);
    }
    const url = tried.plainRoute
      ? `${site}/?rest_route=${route}&${query}`
      : `${site}/wp-json${route}?${query}`;
    const headers: Record<string, string> = { accept: "application/json" };
    if (!tried.queryAuth) headers.authorization = authorization;
    if (body === undefined) return http.call(url, { method, headers }, signal);
    headers["content-type"] = "application/json";
    return http.call(url, { method, headers, body: JSON.stringify(body) }, signal);
  }

  /** The call as saved; on a 404 or 401, the other route or authentication once each. */
  async function request(
    method: PlatformMethod,
    route: string,
    params: URLSearchParams,
    signal: AbortSignal,
    body?: unknown,
  ): Promise<PlatformResponse> {
    let tried = mode;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await call(method, route, params, signal, body, tried);
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
        if (attempt >= 2 || status === undefined || answeredByTheApi(error)) throw error;
        if (status === 404 && !tried.plainRoute && attempt === 0) {
          tried = { ...tried, plainRoute: true };
        } else if (status === 401 && !tried.queryAuth) {
          tried = { ...tried, queryAuth: true };
        } else throw error;
      }
    }
  }

  return { request };
}

/** A response header's first value. */
export function header(res: PlatformResponse, name: string): string | undefined {
  const value = res.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** WordPress's paging: `X-WP-TotalPages`, or the `Link` header's `rel="next"`. */
export function hasNextPage(res: PlatformResponse, page: number): boolean {
  const total = Number(header(res, "x-wp-totalpages"));
  if (Number.isFinite(total) && header(res, "x-wp-totalpages") !== undefined) return page < total;
  return /rel="next"/.test(header(res, "link") ?? "");
}
