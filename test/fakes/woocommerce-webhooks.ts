/**
 * The webhooks of the fake WooCommerce (woocommerce-rest.ts routes `/wc/v3/webhooks` here after
 * its route and authentication checks), following WooCommerce's own code.
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
 * The fields: https://developer.woocommerce.com/docs/apis/rest-api/v3/webhooks/.
 *
 * Pings and deliveries: woocommerce-webhook-delivery.ts.
 */
import { randomBytes } from "node:crypto";
import {
  createWooDeliverer,
  type FakeWooWebhook,
  gmtNow,
  type WooWebhookStatus,
} from "./woocommerce-webhook-delivery.js";

export type {
  FakeWooWebhook,
  WooDelivery,
  WooWebhookStatus,
} from "./woocommerce-webhook-delivery.js";

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

export function createFakeWooWebhooks(site: () => string) {
  const webhooks: FakeWooWebhook[] = [];
  const deliverer = createWooDeliverer(site);
  let nextId = 40;

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

  return {
    webhooks,
    deliveries: deliverer.deliveries,
    /** Queues a delivery to every active webhook on `topic`, as WooCommerce's hooks do. */
    emit(topic: string, payload: () => unknown): void {
      for (const w of webhooks) {
        // should_deliver (active?) is asked when the event happens; the scheduled delivery asks
        // nothing more, and builds its payload from the resource as it is THEN (build_payload):
        // an order.created that runs after a change carries the changed order.
        if (w.status === "active" && w.topic === topic) deliverer.enqueue(w, payload);
      }
    },
    dropNextDeliveries: deliverer.dropNextDeliveries,
    settled: deliverer.settled,
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
    await deliverer.ping(w);
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
    await deliverer.save(w, urlChanged);
    return { status: 200, body: view(w, true) };
  }
}

export type FakeWooWebhooks = ReturnType<typeof createFakeWooWebhooks>;
