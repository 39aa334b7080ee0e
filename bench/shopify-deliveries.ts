/**
 * What the webhooks benchmark posts: Shopify `orders/create` deliveries, each a new customer
 * (a unique e-mail) with a unique order id and a unique `X-Shopify-Webhook-Id`, and every
 * REPEAT_EVERY-th request a repeat of a delivery already answered `new` (same bytes, same headers,
 * same webhook id: what Shopify sends again when it counts a delivery as failed), which must be
 * answered `{"received":"duplicate"}`. Only answered deliveries are repeated, so which of the two
 * is the first is never a race.
 *
 * The payload is the REST order resource Shopify's order webhooks carry, built by the fake's own
 * mapping (test/fakes/shopify-rest-order.ts). The headers are those Shopify sends with each
 * delivery (https://shopify.dev/docs/apps/build/webhooks/delivery-structure: X-Shopify-Topic,
 * -Hmac-Sha256, -Shop-Domain, -Webhook-Id, -Event-Id, -Triggered-At, -API-Version), the HMAC
 * being the base64 HMAC-SHA256 of the raw body keyed with the app's secret
 * (https://shopify.dev/docs/apps/build/webhooks/verify-webhooks), computed here with node:crypto
 * rather than by Velvet's own code, so a wrong rule on either side would show as 401s.
 */
import { createHmac, randomUUID } from "node:crypto";
import { shopifyOrder } from "../test/fakes/shopify-orders.js";
import { restOrder } from "../test/fakes/shopify-rest-order.js";
import type { RequestSource } from "./load.js";

/** One in REPEAT_EVERY requests repeats an earlier delivery: 5 %. */
export const REPEAT_EVERY = 20;
/** Shopify's numeric order ids are 13 digits today; ours start here and count up. */
const FIRST_ORDER_ID = 6_100_000_000_000;
const NEW = '{"received":"new"}';
const DUPLICATE = '{"received":"duplicate"}';

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

export interface DeliveryTally {
  /** Distinct deliveries (orders) sent, and those answered 200 `new`. */
  newSent: number;
  newAnswered: number;
  /** Repeats sent, and those answered 200 `duplicate`. */
  repeatsSent: number;
  repeatsAnsweredDuplicate: number;
}

export interface ShopifyDeliverySource extends RequestSource {
  tally: DeliveryTally;
}

/** `next` numbers customers across runs; `shopDomain` is what X-Shopify-Shop-Domain says. */
export function shopifyDeliveries(options: {
  run: string;
  next: () => number;
  secret: string;
  shopDomain: string;
}): ShopifyDeliverySource {
  const tally: DeliveryTally = {
    newSent: 0,
    newAnswered: 0,
    repeatsSent: 0,
    repeatsAnsweredDuplicate: 0,
  };
  const inFlight = new Map<number, { delivery: Delivery; repeat: boolean }>();
  const answered: Delivery[] = [];
  let sequence = 0;

  const fresh = (): Delivery => {
    const n = options.next();
    const orderId = FIRST_ORDER_ID + n;
    const now = new Date();
    const email = `bench.webhook+${options.run}-${n}@example.com`;
    const order = restOrder(
      shopifyOrder(email, now, {
        legacyResourceId: String(orderId),
        name: `#${1000 + n}`,
        first: "Grace",
        last: `Hopper ${n}`,
        total: `${(n % 500) + 19}.90`,
      }),
    );
    const body = JSON.stringify(order);
    const webhookId = randomUUID();
    return {
      body,
      headers: {
        "x-shopify-topic": "orders/create",
        "x-shopify-hmac-sha256": createHmac("sha256", options.secret).update(body).digest("base64"),
        "x-shopify-shop-domain": options.shopDomain,
        "x-shopify-api-version": "2026-10",
        "x-shopify-webhook-id": webhookId,
        "x-shopify-event-id": randomUUID(),
        "x-shopify-triggered-at": now.toISOString(),
      },
    };
  };

  return {
    tally,
    next: () => {
      const tag = sequence++;
      const repeatOf =
        tag % REPEAT_EVERY === REPEAT_EVERY - 1 && answered.length > 0
          ? answered[(tag * 7919) % answered.length]
          : undefined;
      const delivery = repeatOf ?? fresh();
      if (repeatOf === undefined) tally.newSent++;
      else tally.repeatsSent++;
      inFlight.set(tag, { delivery, repeat: repeatOf !== undefined });
      return { tag, body: delivery.body, headers: delivery.headers };
    },
    check: (tag, status, text) => {
      const sent = inFlight.get(tag);
      inFlight.delete(tag);
      if (sent === undefined || status !== 200) return false;
      if (sent.repeat) {
        if (text !== DUPLICATE) return false;
        tally.repeatsAnsweredDuplicate++;
        return true;
      }
      if (text !== NEW) return false;
      tally.newAnswered++;
      answered.push(sent.delivery);
      return true;
    },
  };
}
