/**
 * How the fake WooCommerce (woocommerce-webhooks.ts) pings and delivers, following WooCommerce's
 * own code.
 *
 * Ping (class-wc-webhook.php deliver_ping): POST `webhook_id=<id>` (no signature; the string
 * body goes out form-encoded, cURL's default) with WooCommerce's User-Agent and WordPress's
 * defaults for wp_safe_remote_post (5 s timeout, redirects followed); it passes only on exactly
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
 * Not played: wp_safe_remote_* refuses a delivery URL on a private or loopback address (the
 * fake delivers to loopback, where the tests listen): a real store needs a public address.
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

export function gmtNow(): string {
  return new Date().toISOString().replace(/\.\d{3}Z$/, "");
}

/** PHP's json_encode with WordPress's default flags: `\/` and `\uXXXX` for non-ASCII. */
export function phpJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/\//g, "\\/")
    .replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function createWooDeliverer(site: () => string) {
  const deliveries: WooDelivery[] = [];
  let queue: Promise<void> = Promise.resolve();
  let dropped = 0;

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
        redirect: kind === "ping" ? "follow" : "manual",
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
    deliveries,
    ping,
    save,
    /** Queues a delivery; `payload` is built when it runs (build_payload). */
    enqueue(w: FakeWooWebhook, payload: () => unknown): void {
      enqueue(() => deliver(w, payload()));
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
  };
}
