/**
 * The webhooks of the fake WooCommerce (woocommerce-rest.ts routes `/wc/v3/webhooks` here after
 * its route and authentication checks), following WooCommerce's own code:
 *
 * REST (plugins/woocommerce/includes/rest-api/Controllers/Version1/class-wc-rest-webhooks-v1-
 * controller.php, inherited by v2 and v3):
 * - POST creates an `active` webhook whatever `status` says (create_item sets it from the post
 *   status, always `publish`), with a generated secret when none is given, answers 201 with the
 *   webhook in the `edit` context (the secret included) and THEN pings it; a failed ping does
 *   not refuse the creation (create_item ignores what deliver_ping returns). Missing `topic` or
 *   `delivery_url` is WordPress's 400 `rest_missing_callback_param`; an unknown topic 400
 *   `woocommerce_rest_shop_webhook_invalid_topic`.
 * - GET lists (`per_page` default 10, 1–100; `page`; `status` all|active|paused|disabled;
 *   newest first) with `X-WP-Total` and `X-WP-TotalPages`, in the `view` context (no secret).
 * - PUT updates (`status` must be active|paused|disabled: 400 `…_invalid_status`; an unknown id
 *   is 400 `woocommerce_rest_shop_webhook_invalid_id`); nothing in the API resets the failure
 *   count, so a webhook disabled by failures and set active again keeps its count.
 * - DELETE needs `force=true` (else 501 `woocommerce_rest_trash_not_supported`); an unknown id
 *   is 404 `woocommerce_rest_shop_webhook_invalid_id`.
 *
 * Ping (class-wc-webhook.php deliver_ping): POST `webhook_id=<id>` (form-encoded, no signature)
 * with WooCommerce's User-Agent and WordPress's default 5 s timeout; it passes only on exactly
 * 200 (a 204 fails). A passed ping clears `pending_delivery`; while it is set, every save of the
 * active webhook pings again (class-wc-webhook-data-store.php update), and a delivery saves.
 *
 * Deliveries (class-wc-webhook.php deliver and log_delivery): POST of the order as the REST API
 * v3 builds it (`wp_api_v3`), JSON encoded as PHP's json_encode does (`/` as `\/`, non-ASCII as
 * `\uXXXX`), headers X-WC-Webhook-Source (home_url('/')), -Topic, -Resource, -Event,
 * -Signature (base64 HMAC-SHA256 of the body with the secret), -ID, -Delivery-ID; 60 s timeout
 * (MINUTE_IN_SECONDS), no redirect followed, never retried. 2xx, 301 and 302 succeed and reset
 * the failure count; anything else (a network error included) is a failure: failed_delivery()
 * disables the webhook when the count is already above `woocommerce_max_webhook_delivery_
 * failures` (default 5), else adds one, so the 7th failure in a row disables it. WooCommerce
 * delivers in the background (Action Scheduler, one batch at a time by default), so the fake
 * delivers after answering, one delivery after the other, in the order of the events.
 */
import { createHmac, randomBytes } from "node:crypto";

export type WooWebhookStatus = "active" | "paused" | "disabled";

export interface FakeWooWebhook {
  id: number;
  name: string;
  status: WooWebhookStatus;
  topic: string;
  delivery_url: string;
  secret: string;
  failure_count: number;
  pending_delivery: boolean;
  date_created_gmt: string;
  date_modified_gmt: string;
}

export interface WooDelivery {
  webhookId: number;
  kind: "ping" | "delivery";
  topic: string;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** What the receiver answered; null when nothing came back (lost, refused, timed out). */
  status: number | null;
  error?: string;
  ok: boolean;
}

/** WooCommerce's default for `woocommerce_max_webhook_delivery_failures` (class-wc-webhook.php). */
export const WOO_MAX_DELIVERY_FAILURES = 5;
/** WooCommerce and WordPress as the fake's User-Agent names them. */
export const WOO_USER_AGENT = "WooCommerce/10.3.5 Hookshot (WordPress/6.8.3)";
const DELIVERY_TIMEOUT_MS = 60_000;
const PING_TIMEOUT_MS = 5_000;
const TOPICS = new Set([
  "order.created",
  "order.updated",
  "order.deleted",
  "order.restored",
  "product.created",
  "product.updated",
  "product.deleted",
  "product.restored",
  "customer.created",
  "customer.updated",
  "customer.deleted",
  "coupon.created",
  "coupon.updated",
  "coupon.deleted",
  "coupon.restored",
]);
const STATUSES = new Set<string>(["active", "paused", "disabled"]);

export interface RestAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

function wpError(status: number, code: string, message: string, extra = {}): RestAnswer {
  return { status, body: { code, message, data: { status, ...extra } } };
}

function gmtNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "");
}

/** PHP's json_encode with WordPress's default flags: `\/` and `\uXXXX` for non-ASCII. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, "\\/")
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function createFakeWooWebhooks(site: () => string) {
  const webhooks: FakeWooWebhook[] = [];
  const deliveries: WooDelivery[] = [];
  let queue: Promise<void> = Promise.resolve();
  let nextId = 40;
  let dropped = 0;

  const view = (w: FakeWooWebhook, edit: boolean) => {
    const [resource, event] = w.topic.split(".");
    const links = `${site()}/wp-json/wc/v3/webhooks`;
    return {
      id: w.id,
      name: w.name,
      status: w.status,
      topic: w.topic,
      resource,
      event,
      hooks: [`woocommerce_${event === "created" ? "new" : "update"}_${resource}`],
      delivery_url: w.delivery_url,
      ...(edit ? { secret: w.secret } : {}),
      date_created: w.date_created_gmt,
      date_created_gmt: w.date_created_gmt,
      date_modified: w.date_modified_gmt,
      date_modified_gmt: w.date_modified_gmt,
      _links: { self: [{ href: `${links}/${w.id}` }], collection: [{ href: links }] },
    };
  };

  async function send(
    w: FakeWooWebhook,
    kind: "ping" | "delivery",
    body: string,
    headers: Record<string, string>,
  ): Promise<WooDelivery> {
    const record: WooDelivery = {
      webhookId: w.id,
      kind,
      topic: w.topic,
      url: w.delivery_url,
      headers,
      body,
      status: null,
      ok: false,
    };
    deliveries.push(record);
    if (kind === "delivery" && dropped > 0) {
      dropped--;
      record.error = "lost on the way (dropNextDeliveries)";
      return record;
    }
    try {
      const res = await fetch(w.delivery_url, {
        method: "POST",
        headers: { "user-agent": WOO_USER_AGENT, ...headers },
        body,
        redirect: "manual",
        signal: AbortSignal.timeout(kind === "ping" ? PING_TIMEOUT_MS : DELIVERY_TIMEOUT_MS),
      });
      await res.arrayBuffer();
      record.status = res.status;
    } catch (error) {
      record.error = error instanceof Error ? error.message : String(error);
    }
    record.ok =
      kind === "ping"
        ? record.status === 200
        : record.status !== null && record.status >= 200 && record.status < 303;
    return record;
  }

  /** deliver_ping(): passes on exactly 200, and only then clears pending_delivery. */
  async function ping(w: FakeWooWebhook): Promise<WooDelivery> {
    const headers = { "content-type": "application/x-www-form-urlencoded" };
    const record = await send(w, "ping", `webhook_id=${w.id}`, headers);
    if (record.ok) w.pending_delivery = false;
    return record;
  }

  /** The data store's update(): an active webhook still pending delivery is pinged again. */
  async function save(w: FakeWooWebhook, urlChanged = false): Promise<void> {
    w.date_modified_gmt = gmtNow();
    if (w.status === "active" && (urlChanged || w.pending_delivery)) await ping(w);
  }

  async function deliver(w: FakeWooWebhook, payload: unknown): Promise<void> {
    const [resource, event] = w.topic.split(".");
    const body = phpJson(payload).trim();
    const record = await send(w, "delivery", body, {
      "content-type": "application/json",
      "x-wc-webhook-source": `${site()}/`,
      "x-wc-webhook-topic": w.topic,
      "x-wc-webhook-resource": resource ?? "",
      "x-wc-webhook-event": event ?? "",
      "x-wc-webhook-signature": createHmac("sha256", w.secret).update(body).digest("base64"),
      "x-wc-webhook-id": String(w.id),
      "x-wc-webhook-delivery-id": randomBytes(16).toString("hex"),
    });
    if (record.ok) {
      w.failure_count = 0;
    } else if (w.failure_count > WOO_MAX_DELIVERY_FAILURES) {
      w.status = "disabled";
    } else {
      w.failure_count++;
    }
    await save(w);
  }

  function enqueue(work: () => Promise<void>): void {
    queue = queue.then(work, work);
  }

  return {
    webhooks,
    deliveries,
    /** Queues a delivery to every active webhook on `topic`, as WooCommerce's hooks do. */
    emit(topic: string, payload: () => unknown): void {
      for (const w of webhooks) {
        // should_deliver (active?) is asked when the event happens; the scheduled delivery asks
        // nothing more, and builds its payload from the resource as it is THEN (build_payload):
        // an order.created that runs after a change carries the changed order.
        if (w.status === "active" && w.topic === topic) enqueue(() => deliver(w, payload()));
      }
    },
    dropNextDeliveries(n: number): void {
      dropped += n;
    },
    async settled(): Promise<void> {
      let seen: Promise<void> | undefined;
      while (seen !== queue) {
        seen = queue;
        await seen;
      }
    },
    /** The REST routes `/wc/v3/webhooks` and `/wc/v3/webhooks/<id>`. */
    async handle(
      method: string,
      route: string,
      query: URLSearchParams,
      raw: string,
    ): Promise<RestAnswer | null> {
      const match = /^\/wc\/v3\/webhooks(?:\/(\d+))?$/.exec(route);
      if (match === null) return null;
      const id = match[1] === undefined ? null : Number(match[1]);
      let input: Record<string, unknown> = {};
      if (raw !== "") {
        try {
          input = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          return wpError(400, "rest_invalid_json", "Invalid JSON body passed.");
        }
      }
      for (const [k, v] of query) if (!(k in input)) input[k] = v;
      if (id === null && method === "GET") return list(input);
      if (id === null && method === "POST") return create(input);
      const w = webhooks.find((x) => x.id === id);
      if (id !== null && method === "GET") {
        return w ? { status: 200, body: view(w, false) } : invalidId(404, "Invalid ID.");
      }
      if (id !== null && (method === "PUT" || method === "PATCH" || method === "POST")) {
        if (!w) return invalidId(400, "ID is invalid.");
        return update(w, input);
      }
      if (id !== null && method === "DELETE") {
        if (input.force !== true && input.force !== "true" && input.force !== "1") {
          return wpError(
            501,
            "woocommerce_rest_trash_not_supported",
            "Webhooks do not support trashing.",
          );
        }
        if (!w) return invalidId(404, "Invalid ID.");
        webhooks.splice(webhooks.indexOf(w), 1);
        return { status: 200, body: view(w, true) };
      }
      return wpError(
        404,
        "rest_no_route",
        "No route was found matching the URL and request method.",
      );
    },
  };

  function invalidId(status: number, message: string): RestAnswer {
    return wpError(status, "woocommerce_rest_shop_webhook_invalid_id", message);
  }

  function list(input: Record<string, unknown>): RestAnswer {
    const perPage = Number(input.per_page ?? 10);
    if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
      return wpError(400, "rest_invalid_param", "Invalid parameter(s): per_page", {
        params: { per_page: "per_page must be between 1 (inclusive) and 100 (inclusive)" },
      });
    }
    const page = Number(input.page ?? 1);
    const status = String(input.status ?? "all");
    const matching = webhooks
      .filter((w) => status === "all" || w.status === status)
      .sort((a, b) => b.id - a.id);
    const slice = matching.slice((page - 1) * perPage, page * perPage);
    return {
      status: 200,
      body: slice.map((w) => view(w, false)),
      headers: {
        "x-wp-total": String(matching.length),
        "x-wp-totalpages": String(Math.ceil(matching.length / perPage)),
      },
    };
  }

  async function create(input: Record<string, unknown>): Promise<RestAnswer> {
    const missing = ["topic", "delivery_url"].filter((k) => typeof input[k] !== "string");
    if (missing.length > 0) {
      return wpError(
        400,
        "rest_missing_callback_param",
        `Missing parameter(s): ${missing.join(", ")}`,
        {
          params: missing,
        },
      );
    }
    const topic = String(input.topic).toLowerCase();
    if (!TOPICS.has(topic)) {
      return wpError(
        400,
        "woocommerce_rest_shop_webhook_invalid_topic",
        "Webhook topic is required and must be valid.",
      );
    }
    const url = String(input.delivery_url);
    if (!/^https?:\/\/[^\s]+$/.test(url)) {
      return wpError(
        400,
        "woocommerce_rest_shop_webhook_invalid_delivery_url",
        "Webhook delivery URL must be a valid URL starting with http:// or https://.",
      );
    }
    const now = gmtNow();
    const w: FakeWooWebhook = {
      id: ++nextId,
      name:
        typeof input.name === "string" && input.name !== ""
          ? input.name
          : `Webhook created on ${now}`,
      status: "active",
      topic,
      delivery_url: url,
      secret:
        typeof input.secret === "string" && input.secret !== ""
          ? input.secret
          : randomBytes(38).toString("base64").slice(0, 50),
      failure_count: 0,
      pending_delivery: true,
      date_created_gmt: now,
      date_modified_gmt: now,
    };
    webhooks.push(w);
    const answer = { status: 201, body: view(w, true) };
    await ping(w);
    return answer;
  }

  async function update(w: FakeWooWebhook, input: Record<string, unknown>): Promise<RestAnswer> {
    if (typeof input.topic === "string" && input.topic !== "") {
      if (!TOPICS.has(input.topic.toLowerCase())) {
        return wpError(
          400,
          "woocommerce_rest_shop_webhook_invalid_topic",
          "Webhook topic must be valid.",
        );
      }
      w.topic = input.topic.toLowerCase();
    }
    const urlChanged = typeof input.delivery_url === "string" && input.delivery_url !== "";
    if (urlChanged) w.delivery_url = String(input.delivery_url);
    if (typeof input.secret === "string" && input.secret !== "") w.secret = input.secret;
    if (typeof input.status === "string" && input.status !== "") {
      if (!STATUSES.has(input.status.toLowerCase())) {
        return wpError(
          400,
          "woocommerce_rest_shop_webhook_invalid_status",
          "Webhook status must be valid.",
        );
      }
      w.status = input.status.toLowerCase() as WooWebhookStatus;
    }
    if (typeof input.name === "string" && input.name !== "") w.name = input.name;
    await save(w, urlChanged);
    return { status: 200, body: view(w, true) };
  }
}

export type FakeWooWebhooks = ReturnType<typeof createFakeWooWebhooks>;
