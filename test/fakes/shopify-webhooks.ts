/**
 * A fake Shopify's webhook deliveries (shopify-admin.ts), as Shopify sends them:
 * - An order event is one merchant action (an order placed, edited, cancelled); it is delivered
 *   to each subscription of its topics, as a POST of the REST order (shopify-rest-order.ts)
 *   with the headers of https://shopify.dev/docs/apps/build/webhooks/delivery-structure:
 *   X-Shopify-Topic, X-Shopify-Hmac-Sha256 (base64 HMAC-SHA256 of the raw body, keyed with the
 *   app's client secret), X-Shopify-Shop-Domain, X-Shopify-API-Version (the subscription's),
 *   X-Shopify-Webhook-Id ("a unique composite key per delivery": one per subscription and event,
 *   kept by its retries), X-Shopify-Event-Id ("shared across all deliveries produced by the same
 *   merchant action": the same across topics, subscriptions and retries) and
 *   X-Shopify-Triggered-At (when the event happened, kept by the retries).
 * - An attempt succeeds on a 2xx answered within 5 seconds; anything else fails, redirects
 *   included (https://community.shopify.dev/t/webhooks-retry-after-an-error/24625).
 * - A failed delivery is retried 8 times over 4 hours with exponential backoff, with the
 *   original payload, to the address it was triggered for
 *   (https://shopify.dev/changelog/updates-to-webhook-retry-mechanism). Shopify does not
 *   publish the delays: here each doubles the last, the eight summing to 4 hours. `retryScale`
 *   compresses them for tests (1: real time).
 * - When a delivery's retries are used up (8 consecutive failures after the first), a
 *   subscription made through the Admin API is deleted
 *   (https://shopify.dev/docs/apps/build/webhooks/subscribe/https; the thread above).
 * Test hooks: `dropNextDeliveries(n)` loses the next n deliveries without an attempt (for
 * reconciliation), and `settled()` waits until no delivery is in flight or waiting to retry.
 */
import { createHmac, randomUUID } from "node:crypto";
import type { ShopifyOrderNode } from "./shopify-orders.js";
import { restOrder } from "./shopify-rest-order.js";
import { type FakeWebhookSubscription, TOPIC_NAMES } from "./shopify-webhook-subscriptions.js";

export const DELIVERY_TIMEOUT_MS = 5000;
const RETRY_WINDOW_MS = 4 * 60 * 60 * 1000;
/** 8 delays, each twice the last, summing to the 4-hour window. */
export const RETRY_DELAYS_MS = Array.from(
  { length: 8 },
  (_, i) => (RETRY_WINDOW_MS * 2 ** i) / (2 ** 8 - 1),
);

export interface DeliveryAttempt {
  at: number;
  topic: string;
  subscriptionId: string;
  address: string;
  webhookId: string;
  eventId: string;
  /** 0: the first attempt; 1–8: the retries. */
  attempt: number;
  /** What the receiver answered (status), or why nothing counts: a timeout, a network error. */
  outcome: "delivered" | "failed" | "dropped";
  status: number | null;
  error?: string;
  /** The exact bytes sent, and the headers. */
  body: string;
  headers: Record<string, string>;
}

interface Delivery {
  subscription: FakeWebhookSubscription;
  topic: string;
  address: string;
  body: string;
  headers: Record<string, string>;
  webhookId: string;
  eventId: string;
}

export interface WebhookDeliverer {
  deliveries: DeliveryAttempt[];
  /** Delivers the node's current state under each topic, as one merchant action. */
  trigger(topics: string[], node: ShopifyOrderNode): void;
  dropNextDeliveries(n: number): void;
  settled(): Promise<void>;
  close(): void;
}

export function createWebhookDeliverer(
  subscriptions: FakeWebhookSubscription[],
  shopDomain: string,
  retryScale: number,
): WebhookDeliverer {
  const deliveries: DeliveryAttempt[] = [];
  const timers = new Set<NodeJS.Timeout>();
  const aborts = new Set<AbortController>();
  let pending = 0;
  let waiters: (() => void)[] = [];
  let drop = 0;
  let closed = false;

  const done = () => {
    if (closed) return;
    pending -= 1;
    if (pending === 0) {
      const woken = waiters;
      waiters = [];
      for (const wake of woken) wake();
    }
  };

  async function attempt(delivery: Delivery, n: number): Promise<void> {
    if (closed) return done();
    // A subscription deleted meanwhile (by the merchant, or for failing) gets no more attempts.
    if (!subscriptions.includes(delivery.subscription)) return done();
    const { topic, address, webhookId, eventId, body, headers } = delivery;
    const record = { at: Date.now(), topic, subscriptionId: delivery.subscription.id, address };
    const ids = { webhookId, eventId, attempt: n, body, headers };
    let status: number | null = null;
    let error: string | undefined;
    const abort = new AbortController();
    aborts.add(abort);
    const timeout = setTimeout(() => abort.abort(new Error("timeout")), DELIVERY_TIMEOUT_MS);
    try {
      const res = await fetch(address, {
        method: "POST",
        headers,
        body,
        redirect: "manual",
        signal: abort.signal,
      });
      await res.arrayBuffer(); // the whole answer must come within the 5 seconds
      status = res.status;
    } catch (e) {
      error = abort.signal.aborted ? `no answer within ${DELIVERY_TIMEOUT_MS} ms` : String(e);
    } finally {
      clearTimeout(timeout);
      aborts.delete(abort);
    }
    if (closed) return done();
    const ok = status !== null && status >= 200 && status < 300;
    deliveries.push({ ...record, ...ids, outcome: ok ? "delivered" : "failed", status, error });
    if (ok) return done();
    const delay = RETRY_DELAYS_MS[n];
    if (delay === undefined) {
      // Retries used up: the subscription (made through the Admin API) is deleted.
      const at = subscriptions.indexOf(delivery.subscription);
      if (at >= 0) subscriptions.splice(at, 1);
      return done();
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      void attempt(delivery, n + 1);
    }, delay * retryScale);
    timers.add(timer);
  }

  function trigger(topics: string[], node: ShopifyOrderNode) {
    const eventId = randomUUID();
    const triggeredAt = new Date().toISOString();
    for (const topic of topics) {
      const name = TOPIC_NAMES[topic] ?? topic;
      for (const subscription of subscriptions.filter((s) => s.topic === topic)) {
        const webhookId = randomUUID();
        const body = JSON.stringify(restOrder(node));
        const headers = {
          "content-type": "application/json",
          "x-shopify-topic": name,
          "x-shopify-hmac-sha256": createHmac("sha256", subscription.signWith)
            .update(body, "utf8")
            .digest("base64"),
          "x-shopify-shop-domain": shopDomain,
          "x-shopify-api-version": subscription.apiVersion,
          "x-shopify-webhook-id": webhookId,
          "x-shopify-event-id": eventId,
          "x-shopify-triggered-at": triggeredAt,
        };
        const delivery = {
          subscription,
          topic: name,
          address: subscription.uri,
          body,
          headers,
          webhookId,
          eventId,
        };
        if (drop > 0) {
          drop -= 1;
          const lost = {
            at: Date.now(),
            topic: name,
            subscriptionId: subscription.id,
            address: subscription.uri,
          };
          deliveries.push({
            ...lost,
            webhookId,
            eventId,
            attempt: 0,
            outcome: "dropped",
            status: null,
            body,
            headers,
          });
          continue;
        }
        pending += 1;
        setImmediate(() => void attempt(delivery, 0));
      }
    }
  }

  return {
    deliveries,
    trigger,
    dropNextDeliveries: (n) => {
      drop += n;
    },
    settled: () =>
      pending === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiters.push(resolve)),
    close: () => {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      for (const abort of aborts) abort.abort(new Error("closed"));
      timers.clear();
      pending = 0;
      for (const wake of waiters) wake();
      waiters = [];
    },
  };
}
