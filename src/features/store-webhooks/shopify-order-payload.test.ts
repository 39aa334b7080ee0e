/**
 * An order maps to the same PulledOrder whether Velvet polled it (the GraphQL node,
 * mapShopifyOrder) or Shopify pushed it (the REST webhook body, mapShopifyWebhookOrder): one
 * order taken both ways through the fake Shopify and compared, placed and then cancelled; and
 * the mapper's own rules on bodies as Shopify writes them (test orders, refunds, no e-mail,
 * blank strings, ids past 2^53, a body that is not an order).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  type ShopifyOrderNode,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import { restOrder } from "../../../test/fakes/shopify-rest-order.js";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../test/fakes/webhook-receiver.js";
import { createPlatformHttp, type PlatformHttp } from "../store-sync/platform-http.js";
import { createShopifyClient } from "../store-sync/shopify-client.js";
import { mapShopifyOrder, OrderNode } from "../store-sync/shopify-order.js";
import type { PulledOrder } from "../store-sync/store-platform.js";
import { mapShopifyWebhookOrder } from "./shopify-order-payload.js";
import { createShopifyWebhooks } from "./shopify-webhooks.js";

const ACCESS = { allowPrivate: true, apiVersion: "2026-10" };
const signal = new AbortController().signal;
const at = new Date("2026-11-20T15:30:00.000Z");

/** The node both ways, as the wire carries each (JSON). */
const polled = (node: ShopifyOrderNode) =>
  mapShopifyOrder(OrderNode.parse(JSON.parse(JSON.stringify(node))));
const pushed = (node: ShopifyOrderNode) =>
  mapShopifyWebhookOrder(JSON.parse(JSON.stringify(restOrder(node))));

describe("one Shopify order, polled or pushed", () => {
  let http: PlatformHttp;
  let shopify: FakeShopify;
  let receiver: FakeWebhookReceiver;

  beforeAll(async () => {
    http = createPlatformHttp({ allowPrivate: true, timeoutMs: 5000 });
    shopify = await startFakeShopify();
    receiver = await startWebhookReceiver();
    const credentials = { platform: "shopify" as const, token: shopify.token };
    await createShopifyWebhooks(http, shopify.shop, credentials, ACCESS).subscribe(
      receiver.url,
      "x",
      signal,
    );
  });
  afterAll(async () => {
    await shopify.close();
    await receiver.close();
    await http.close();
  });

  const pollAll = async (): Promise<PulledOrder[]> => {
    const client = createShopifyClient(
      http,
      shopify.shop,
      { platform: "shopify", token: shopify.token },
      ACCESS,
    );
    const page = await client.fetchPage(
      { since: "2020-01-01T00:00:00Z", after: null, maxSeen: null },
      signal,
    );
    return page.orders;
  };

  it("maps to the same submission, placed and then cancelled", async () => {
    const node = shopify.placeOrder(
      shopifyOrder("ada@navy-systems.com", at, {
        first: "Ada",
        last: "Lovelace",
        total: "1899.50",
        currency: "EUR",
        phone: "+44 20 7946 0958",
        displayFinancialStatus: "PAID",
      }),
    );
    await shopify.deliveriesSettled();
    const fromWebhook = mapShopifyWebhookOrder(JSON.parse(receiver.requests.at(-1)?.raw ?? ""));
    const fromPolling = (await pollAll()).find((o) => o.externalId === node.legacyResourceId);
    expect(fromWebhook).toMatchObject({ kind: "order", status: "paid", counts: true });
    expect(fromWebhook).toEqual(fromPolling);

    shopify.cancelOrder(node.legacyResourceId);
    await shopify.deliveriesSettled();
    const cancelled = receiver.requests.find(
      (r) => r.headers["x-shopify-topic"] === "orders/cancelled",
    );
    const fromCancel = mapShopifyWebhookOrder(JSON.parse(cancelled?.raw ?? ""));
    const polledAgain = (await pollAll()).find((o) => o.externalId === node.legacyResourceId);
    expect(fromCancel).toMatchObject({ kind: "order", status: "cancelled", counts: false });
    expect(fromCancel).toEqual(polledAgain);
  });
});

describe("mapShopifyWebhookOrder", () => {
  it("a test order is skipped, as polling skips it", () => {
    const node = shopifyOrder("test@navy-systems.com", at, { test: true });
    expect(pushed(node)).toMatchObject({ kind: "skip", reason: "test order" });
    expect(pushed(node)).toEqual(polled(node));
  });

  it("a refunded order is kept with its status and does not count", () => {
    const node = shopifyOrder("refund@navy-systems.com", at, {
      displayFinancialStatus: "REFUNDED",
    });
    expect(pushed(node)).toMatchObject({ kind: "order", status: "refunded", counts: false });
    expect(pushed(node)).toEqual(polled(node));
  });

  it("a partially refunded order still counts", () => {
    const node = shopifyOrder("part@navy-systems.com", at, {
      displayFinancialStatus: "PARTIALLY_REFUNDED",
    });
    expect(pushed(node)).toMatchObject({ status: "partially_refunded", counts: true });
  });

  it("no e-mail anywhere: incomplete customer data, both ways; REST's blank e-mail is no e-mail", () => {
    const node = shopifyOrder(null, at);
    expect(pushed(node)).toMatchObject({ kind: "skip", reason: "incomplete customer data" });
    expect(pushed(node)).toEqual(polled(node));
    const body = {
      ...restOrder(node),
      email: "",
      customer: { ...restOrder(node).customer, email: "" },
    };
    expect(mapShopifyWebhookOrder(body)).toMatchObject({
      kind: "skip",
      reason: "incomplete customer data",
    });
  });

  it("the e-mail on the customer when the order has none; shipping address when billing has no ZIP", () => {
    const node = shopifyOrder("cust@navy-systems.com", at, {
      email: null,
      billingAddress: {
        firstName: "Grace",
        lastName: "Hopper",
        phone: null,
        city: null,
        provinceCode: null,
        zip: null,
        countryCodeV2: "US",
      },
      shippingAddress: { city: "Boston", provinceCode: "MA", zip: "02108", countryCodeV2: "US" },
    });
    const mapped = pushed(node);
    expect(mapped).toMatchObject({ kind: "order", submission: { email: "cust@navy-systems.com" } });
    expect(mapped).toEqual(polled(node));
    expect(JSON.stringify(mapped)).toContain("02108");
  });

  it("keeps the customer's GID and takes the order id from the GID (ids past 2^53 survive)", () => {
    const node = shopifyOrder("big@navy-systems.com", at);
    const body = {
      ...restOrder(node),
      id: 820982911946154500,
      admin_graphql_api_id: "gid://shopify/Order/820982911946154508",
    };
    const mapped = mapShopifyWebhookOrder(body);
    expect(mapped).toMatchObject({
      kind: "order",
      externalId: "820982911946154508",
      shopifyCustomerId: node.customer?.id,
    });
  });

  it("a body that is not an order is null", () => {
    expect(mapShopifyWebhookOrder(null)).toBeNull();
    expect(mapShopifyWebhookOrder("orders/create")).toBeNull();
    expect(mapShopifyWebhookOrder({ id: 1 })).toBeNull();
    expect(mapShopifyWebhookOrder({ id: 1, created_at: "x", updated_at: "not a date" })).toBeNull();
  });
});
