/**
 * WooCommerce's webhooks for one connected site, over its REST API v3 (`/wc/v3/webhooks`,
 * https://developer.woocommerce.com/docs/apis/rest-api/v3/webhooks/), through the same requests
 * as the order reads (store-sync/woocommerce-http.ts: basic auth or the key in the query
 * string, `/wp-json/` or `?rest_route=`, what worked saved with the credentials).
 *
 * Velvet's webhooks are those whose `delivery_url` is Velvet's address for the connection, one
 * per topic (`order.created`, `order.updated`), named "Velvet: …" so a merchant recognises them
 * in WooCommerce › Settings › Advanced › Webhooks. Made through `/wc/v3`, a webhook's API
 * version is `wp_api_v3` (the Version3 webhooks controller's default), so its order deliveries
 * are the v3 order JSON (woocommerce-order-payload.ts). subscribe() lists first and then:
 * - creates a topic that has none (POST; WooCommerce pings the address before it answers);
 * - sets a `paused` one (paused in the admin) back to `active` (PUT);
 * - replaces a `disabled` one (disabled by WooCommerce after failed deliveries) with a new one:
 *   WooCommerce keeps the failure count when a webhook is set active again and the REST API
 *   cannot reset it, so one more failure would disable it at once (class-wc-webhook.php
 *   failed_delivery); a new webhook starts at 0.
 *
 * WooCommerce's refusals, as people must read them:
 * - A key made with "Read" permission is refused every POST, PUT and DELETE with a 401 "The API
 *   key provided does not have write permissions" (class-wc-rest-authentication.php
 *   check_permissions): the key needs Read/Write.
 * - WooCommerce creates the webhook even when its ping to the address fails (the REST
 *   controller's create_item ignores deliver_ping's answer), so only Velvet can tell that the
 *   ping never came: `pinged` (given by the caller that records pings) is asked for each
 *   webhook created, and when one was not pinged the webhooks just created are removed and
 *   subscribe() fails saying the site could not reach Velvet's PUBLIC_BASE_URL.
 */
import { z } from "zod";
import { PlatformError, type PlatformHttp } from "../store-sync/platform-http.js";
import { safeJson } from "../store-sync/shopify-client.js";
import { withWaits } from "../store-sync/wait-politely.js";
import {
  createWooCommerceHttp,
  hasNextPage,
  type WooCredentials,
  wooErrorOf,
} from "../store-sync/woocommerce-http.js";
import type { PlatformWebhooks, WebhookSubscription } from "./platform-webhooks.js";

export const WOO_ORDER_TOPICS = ["order.created", "order.updated"] as const;
type WooOrderTopic = (typeof WOO_ORDER_TOPICS)[number];
/** What the merchant sees in WooCommerce › Settings › Advanced › Webhooks. */
const NAMES: Record<WooOrderTopic, string> = {
  "order.created": "Velvet: order created",
  "order.updated": "Velvet: order updated",
};
/** The REST API's largest page (WordPress refuses per_page above 100). */
const PAGE_SIZE = 100;
/** A site with more webhooks than this many pages is not read further. */
const MAX_PAGES = 50;

export const READ_ONLY_KEY_MESSAGE =
  "the WooCommerce API key can only read: webhooks need a key with Read/Write permissions (WooCommerce › Settings › Advanced › REST API › Add key); make one and connect the store with it";

export function notPingedMessage(address: string): string {
  return `the store could not reach Velvet at ${address}: WooCommerce's test delivery (its ping) did not arrive; PUBLIC_BASE_URL must be Velvet's public https address, reachable from the store's server`;
}

const WooWebhook = z.object({
  id: z.number(),
  status: z.string(),
  topic: z.string(),
  delivery_url: z.string(),
});
type WooWebhook = z.infer<typeof WooWebhook>;

export interface WooCommerceWebhooksOptions {
  /**
   * Whether Velvet received WooCommerce's ping for this webhook id. WooCommerce pings before it
   * answers the creation, so the ping has arrived (or never will) when this is asked.
   */
  pinged?: (webhookId: string) => Promise<boolean>;
}

export function createWooCommerceWebhooks(
  http: PlatformHttp,
  site: string,
  credentials: WooCredentials,
  onCredentials?: (credentials: WooCredentials) => void | Promise<void>,
  options: WooCommerceWebhooksOptions = {},
): PlatformWebhooks {
  const woo = createWooCommerceHttp(http, site, credentials, onCredentials);
  const route = (id?: number | string) => `/wc/v3/webhooks${id === undefined ? "" : `/${id}`}`;

  /**
   * A write, with WooCommerce's refusal of a read-only key said plainly: a 401 for a key that
   * has just read the webhooks (`readWorked`), or one that says so in WooCommerce's words (a
   * site in another language says it otherwise; a revoked key is "Consumer key is invalid").
   */
  async function write(
    method: "POST" | "PUT" | "DELETE",
    path: string,
    params: URLSearchParams,
    signal: AbortSignal,
    readWorked: boolean,
    body?: unknown,
  ) {
    try {
      return await withWaits(() => woo.request(method, path, params, signal, body), signal);
    } catch (error) {
      const wp = wooErrorOf(error);
      const readOnly =
        wp?.status === 401 &&
        wp.code === "woocommerce_rest_authentication_error" &&
        (readWorked || /write permission/i.test(wp.message));
      if (readOnly) {
        throw new PlatformError({ kind: "broken", status: 401, message: READ_ONLY_KEY_MESSAGE });
      }
      throw error;
    }
  }

  async function held(signal: AbortSignal): Promise<WooWebhook[]> {
    const all: WooWebhook[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const params = new URLSearchParams({ per_page: String(PAGE_SIZE), page: String(page) });
      const res = await withWaits(() => woo.request("GET", route(), params, signal), signal);
      const parsed = z.array(WooWebhook).safeParse(safeJson(res.body));
      if (!parsed.success) {
        throw new PlatformError({
          kind: "transient",
          message: "WooCommerce answered with an unreadable list of webhooks",
        });
      }
      all.push(...parsed.data);
      if (!hasNextPage(res, page)) break;
    }
    return all;
  }

  async function list(address: string, signal: AbortSignal): Promise<WebhookSubscription[]> {
    return (await held(signal))
      .filter((w) => sameAddress(w.delivery_url, address))
      .map(subscriptionOf);
  }

  async function create(
    topic: WooOrderTopic,
    address: string,
    secret: string,
    signal: AbortSignal,
  ) {
    const body = {
      name: NAMES[topic],
      topic,
      delivery_url: address,
      secret,
      status: "active",
    };
    const res = await write("POST", route(), new URLSearchParams(), signal, true, body);
    const parsed = WooWebhook.safeParse(safeJson(res.body));
    if (!parsed.success) {
      throw new PlatformError({
        kind: "transient",
        message: "WooCommerce answered the webhook's creation with something unreadable",
      });
    }
    return parsed.data;
  }

  async function remove(ids: string[], signal: AbortSignal, readWorked = false): Promise<void> {
    for (const id of ids) {
      try {
        const force = new URLSearchParams({ force: "true" });
        await write("DELETE", route(id), force, signal, readWorked);
      } catch (error) {
        // Already gone (deleted in the admin): what remove() was asked for.
        if (wooErrorOf(error)?.status === 404) continue;
        throw error;
      }
    }
  }

  return {
    list,
    remove: (ids, signal) => remove(ids, signal),
    async subscribe(address, secret, signal) {
      const ours = (await held(signal)).filter((w) => sameAddress(w.delivery_url, address));
      const created: WooWebhook[] = [];
      const replaced: string[] = [];
      for (const topic of WOO_ORDER_TOPICS) {
        const same = ours.filter((w) => w.topic === topic);
        if (same.some((w) => w.status === "active")) continue;
        const paused = same.find((w) => w.status === "paused");
        if (paused !== undefined) {
          const body = { status: "active", secret };
          await write("PUT", route(paused.id), new URLSearchParams(), signal, true, body);
          continue;
        }
        created.push(await create(topic, address, secret, signal));
        replaced.push(...same.map((w) => String(w.id)));
      }
      if (options.pinged !== undefined) {
        for (const w of created) {
          if (await options.pinged(String(w.id))) continue;
          await remove(
            created.map((c) => String(c.id)),
            signal,
            true,
          );
          throw new PlatformError({ kind: "broken", message: notPingedMessage(address) });
        }
      }
      await remove(replaced, signal, true);
      return list(address, signal);
    },
  };
}

function subscriptionOf(w: WooWebhook): WebhookSubscription {
  return {
    id: String(w.id),
    topic: w.topic,
    address: w.delivery_url,
    active: w.status === "active",
  };
}

/** WooCommerce keeps the address as esc_url_raw left it: compared as URLs, not as text. */
function sameAddress(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}
