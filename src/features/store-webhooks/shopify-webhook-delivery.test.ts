/**
 * The fake Shopify's deliveries keep Shopify's rules, so tests of Velvet's inbound endpoint
 * prove something: the signature verifies with node:crypto over the raw bytes (client secret
 * for a Dev Dashboard app, the API secret key for a legacy custom app's token); the ids that
 * stay (webhook id and triggered-at across retries, event id across the topics of one action);
 * failures (5xx, a redirect, no answer within 5 s) are retried with the original payload, and a
 * delivery whose 8 retries fail deletes the subscription; lost deliveries and a merchant's
 * deletion leave polling the only way in.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../test/fakes/webhook-receiver.js";
import type { ShopifyCredentials } from "../store-sync/credentials.js";
import { createPlatformHttp, type PlatformHttp } from "../store-sync/platform-http.js";
import { createShopifyWebhooks } from "./shopify-webhooks.js";

const ACCESS = { allowPrivate: true, apiVersion: "2026-10" };
const signal = new AbortController().signal;
/** 4 hours of retries in about 1.4 seconds. */
const RETRY_SCALE = 0.0001;

function verifies(raw: string, header: string | undefined, secret: string): boolean {
  const expected = createHmac("sha256", secret).update(Buffer.from(raw, "utf8")).digest();
  const given = Buffer.from(header ?? "", "base64");
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe("the fake Shopify's webhook deliveries", () => {
  let http: PlatformHttp;
  let shopify: FakeShopify;
  let receiver: FakeWebhookReceiver;

  beforeAll(() => {
    http = createPlatformHttp({ allowPrivate: true, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await http.close();
  });
  afterEach(async () => {
    await shopify?.close();
    await receiver?.close();
  });

  async function subscribed(credentials?: (s: FakeShopify) => ShopifyCredentials) {
    shopify = await startFakeShopify({ retryScale: RETRY_SCALE });
    receiver = await startWebhookReceiver();
    const creds = credentials?.(shopify) ?? { platform: "shopify", token: shopify.token };
    await createShopifyWebhooks(http, shopify.shop, creds, ACCESS).subscribe(
      receiver.url,
      "x",
      signal,
    );
  }
  const order = (email: string) =>
    shopifyOrder(email, new Date(), { first: "Zoë", last: "Brontë" });

  it("a Dev Dashboard app's deliveries are signed with its client secret over the raw bytes", async () => {
    await subscribed((s) => ({
      platform: "shopify",
      clientId: s.clientId,
      clientSecret: s.clientSecret,
    }));
    const placed = shopify.placeOrder(order("zoe@navy-systems.com"));
    await shopify.deliveriesSettled();
    expect(receiver.requests).toHaveLength(1);
    const [got] = receiver.requests;
    expect(got?.headers).toMatchObject({
      "x-shopify-topic": "orders/create",
      "x-shopify-shop-domain": shopify.shopDomain,
      "x-shopify-api-version": "2026-10",
      "content-type": "application/json",
    });
    expect(got?.headers["x-shopify-webhook-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(got?.headers["x-shopify-event-id"]).toMatch(/^[0-9a-f-]{36}$/);
    expect(Date.parse(got?.headers["x-shopify-triggered-at"] ?? "")).not.toBeNaN();
    const raw = got?.raw ?? "";
    expect(verifies(raw, got?.headers["x-shopify-hmac-sha256"], shopify.clientSecret)).toBe(true);
    expect(verifies(raw, got?.headers["x-shopify-hmac-sha256"], shopify.apiSecretKey)).toBe(false);
    // One byte changed (the ë re-encoded) and the signature no longer holds.
    expect(
      verifies(raw.replace("ë", "e"), got?.headers["x-shopify-hmac-sha256"], shopify.clientSecret),
    ).toBe(false);
    expect(JSON.parse(raw)).toMatchObject({
      id: Number(placed.legacyResourceId),
      admin_graphql_api_id: `gid://shopify/Order/${placed.legacyResourceId}`,
    });
    // Polling sees the order too.
    expect(shopify.orders).toContain(placed);
  });

  it("a legacy custom app's token: deliveries signed with its API secret key", async () => {
    await subscribed();
    shopify.placeOrder(order("legacy@navy-systems.com"));
    await shopify.deliveriesSettled();
    const [got] = receiver.requests;
    const header = got?.headers["x-shopify-hmac-sha256"];
    expect(verifies(got?.raw ?? "", header, shopify.apiSecretKey)).toBe(true);
    expect(verifies(got?.raw ?? "", header, shopify.clientSecret)).toBe(false);
  });

  it("a cancellation is one event under two topics; an update moves updated_at", async () => {
    await subscribed();
    const placed = shopify.placeOrder(order("cancel@navy-systems.com"));
    await shopify.deliveriesSettled();
    shopify.updateOrder(placed.legacyResourceId, { displayFinancialStatus: "PAID" });
    await shopify.deliveriesSettled();
    shopify.cancelOrder(placed.legacyResourceId);
    await shopify.deliveriesSettled();
    const topics = receiver.requests.map((r) => r.headers["x-shopify-topic"]);
    expect(topics.slice(0, 2)).toEqual(["orders/create", "orders/updated"]);
    expect(topics.slice(2).sort()).toEqual(["orders/cancelled", "orders/updated"]);
    const [created, updated, c1, c2] = receiver.requests;
    expect(Date.parse(String(JSON.parse(updated?.raw ?? "{}").updated_at))).toBeGreaterThan(
      Date.parse(String(JSON.parse(created?.raw ?? "{}").updated_at)),
    );
    expect(c1?.headers["x-shopify-event-id"]).toBe(c2?.headers["x-shopify-event-id"]);
    expect(c1?.headers["x-shopify-webhook-id"]).not.toBe(c2?.headers["x-shopify-webhook-id"]);
    expect(created?.headers["x-shopify-event-id"]).not.toBe(c1?.headers["x-shopify-event-id"]);
    expect(JSON.parse(c1?.raw ?? "{}").cancelled_at).toMatch(/-05:00$/);
  });

  it("a 5xx and a redirect fail and are retried with the same payload and ids", async () => {
    await subscribed();
    receiver.reply(
      { status: 500 },
      { status: 301, headers: { location: "https://elsewhere.example/" } },
    );
    shopify.placeOrder(order("retry@navy-systems.com"));
    await shopify.deliveriesSettled();
    expect(shopify.deliveries.map((d) => [d.attempt, d.outcome, d.status])).toEqual([
      [0, "failed", 500],
      [1, "failed", 301],
      [2, "delivered", 204],
    ]);
    const [first, ...retries] = receiver.requests;
    for (const retry of retries) {
      expect(retry.raw).toBe(first?.raw);
      for (const h of ["x-shopify-webhook-id", "x-shopify-event-id", "x-shopify-triggered-at"]) {
        expect(retry.headers[h]).toBe(first?.headers[h]);
      }
    }
    expect(shopify.subscriptions).toHaveLength(3);
  });

  it("no answer within 5 seconds is a failure, retried", { timeout: 20_000 }, async () => {
    await subscribed();
    receiver.reply({ hangMs: 5_600 });
    shopify.placeOrder(order("slow@navy-systems.com"));
    await shopify.deliveriesSettled();
    expect(shopify.deliveries.map((d) => [d.outcome, d.status])).toEqual([
      ["failed", null],
      ["delivered", 204],
    ]);
    expect(shopify.deliveries[0]?.error).toMatch(/within 5000 ms/);
  });

  it("retries stop after 8, and the failing subscription is deleted", async () => {
    await subscribed();
    receiver.reply(...Array.from({ length: 12 }, () => ({ status: 503 })));
    shopify.placeOrder(order("down@navy-systems.com"));
    await shopify.deliveriesSettled();
    expect(shopify.deliveries.map((d) => d.attempt)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
    expect(shopify.deliveries.every((d) => d.outcome === "failed")).toBe(true);
    // Each retry waited longer than the one before (exponential backoff).
    const gaps = shopify.deliveries.slice(1).map((d, i) => d.at - (shopify.deliveries[i]?.at ?? 0));
    expect(gaps.at(-1)).toBeGreaterThan(gaps[0] ?? 0);
    expect(shopify.subscriptions.map((s) => s.topic).sort()).toEqual([
      "ORDERS_CANCELLED",
      "ORDERS_UPDATED",
    ]);
    // Nothing more comes for the deleted topic.
    shopify.placeOrder(order("after@navy-systems.com"));
    await shopify.deliveriesSettled();
    expect(receiver.requests).toHaveLength(9);
  });

  it("dropped deliveries and subscriptions deleted in the admin: only polling sees the orders", async () => {
    await subscribed();
    shopify.dropNextDeliveries(1);
    const lost = shopify.placeOrder(order("lost@navy-systems.com"));
    await shopify.deliveriesSettled();
    expect(receiver.requests).toHaveLength(0);
    expect(shopify.deliveries.map((d) => d.outcome)).toEqual(["dropped"]);
    expect(shopify.orders).toContain(lost);

    shopify.deleteSubscriptionsInAdmin();
    expect(
      await createShopifyWebhooks(
        http,
        shopify.shop,
        { platform: "shopify", token: shopify.token },
        ACCESS,
      ).list(receiver.url, signal),
    ).toEqual([]);
    shopify.placeOrder(order("unheard@navy-systems.com"));
    await shopify.deliveriesSettled();
    expect(receiver.requests).toHaveLength(0);
    expect(shopify.orders).toHaveLength(2);
  });
});
