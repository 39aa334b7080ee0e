/**
 * How the platforms count a pass's orders, as the clients ask and the fakes answer by the
 * platforms' documented rules (no database): Shopify's `ordersCount` stops at its limit with
 * AT_LEAST (none with `limit: null`), needs read_orders and costs query points; WooCommerce's
 * `X-WP-Total` counts every status but trash with the GMT bound, and refuses a per_page outside
 * 1–100.
 */
import { afterAll, afterEach, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import { testPlatformHttp } from "../../../test/support/store-sync.js";
import { loadConfig } from "../../config.js";
import { PlatformError } from "./platform-http.js";
import { createShopifyClient } from "./shopify-client.js";
import { ORDERS_COUNT_QUERY } from "./shopify-order.js";
import { createWooCommerceClient } from "./woocommerce-client.js";

const DAY = 24 * 60 * 60 * 1000;
/** The version Velvet asks for by default (SHOPIFY_API_VERSION unset). */
const SHOPIFY_API_VERSION = loadConfig({}).storeSync.shopifyApiVersion;
const ago = (ms: number) => new Date(Date.now() - ms);
const since = () => ago(30 * DAY).toISOString();
const signal = () => AbortSignal.timeout(10_000);

describe("counting a pass's orders", () => {
  let shopify: FakeShopify | undefined;
  let woo: FakeWooCommerce | undefined;
  const http = testPlatformHttp();
  afterAll(() => http.close());
  afterEach(async () => {
    await shopify?.close();
    await woo?.close();
    shopify = undefined;
    woo = undefined;
  });

  it("Shopify: exact up to the limit, AT_LEAST above it, uncapped with limit null, one point each", async () => {
    shopify = await startFakeShopify();
    for (let i = 0; i < 10_001; i++) shopify.orders.push(shopifyOrder(`c${i}@acme.com`, ago(DAY)));
    shopify.orders.push(shopifyOrder("old@acme.com", ago(40 * DAY)));
    const client = createShopifyClient(
      http,
      shopify.shop,
      { platform: "shopify", token: shopify.token },
      { allowPrivate: true, apiVersion: SHOPIFY_API_VERSION },
    );
    expect(await client.countOrders(since(), signal())).toEqual({
      count: 10_000,
      precision: "at_least",
    });
    expect(shopify.requests.at(-1)).toMatchObject({ answered: 200, cost: 1 });
    shopify.orders.splice(0, 2);
    expect(await client.countOrders(since(), signal())).toEqual({
      count: 9_999,
      precision: "exact",
    });

    const raw = await fetch(`${shopify.origin}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-shopify-access-token": shopify.token },
      body: JSON.stringify({ query: ORDERS_COUNT_QUERY, variables: { query: "", limit: null } }),
    });
    expect(((await raw.json()) as { data: unknown }).data).toEqual({
      ordersCount: { count: 10_000, precision: "EXACT" },
    });
  });

  it("Shopify: without read_orders the count is refused with the scope to add", async () => {
    shopify = await startFakeShopify({ scopes: "read_customers" });
    const client = createShopifyClient(
      http,
      shopify.shop,
      { platform: "shopify", token: shopify.token },
      { allowPrivate: true, apiVersion: SHOPIFY_API_VERSION },
    );
    const refused = await client.countOrders(since(), signal()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(PlatformError);
    expect((refused as PlatformError).failure).toMatchObject({ kind: "broken" });
    expect((refused as Error).message).toMatch(/ACCESS_DENIED.*read_orders/);
  });

  it("WooCommerce: X-WP-Total of a page of one, every status but trash, in GMT; per_page 0 is refused", async () => {
    woo = await startFakeWooCommerce({ utcOffsetMinutes: -5 * 60 });
    for (const status of [
      "processing",
      "pending",
      "failed",
      "checkout-draft",
      "trash",
      "completed",
    ])
      woo.orders.push(wooOrder(`${status}@acme.com`, ago(DAY), { status }));
    woo.orders.push(wooOrder("edge@acme.com", ago(30 * DAY - 2 * 60 * 60 * 1000)));
    woo.orders.push(wooOrder("old@acme.com", ago(30 * DAY + 2 * 60 * 60 * 1000)));
    const client = createWooCommerceClient(http, woo.url, {
      platform: "woocommerce",
      key: woo.key,
      secret: woo.secret,
    });
    expect(await client.countOrders(since(), signal())).toEqual({ count: 6, precision: "exact" });
    expect(woo.requests.at(-1)?.query.get("per_page")).toBe("1");

    const auth = `Basic ${Buffer.from(`${woo.key}:${woo.secret}`).toString("base64")}`;
    const zero = await fetch(`${woo.url}/wp-json/wc/v3/orders?per_page=0`, {
      headers: { authorization: auth },
    });
    expect(zero.status).toBe(400);
    expect(await zero.json()).toMatchObject({ code: "rest_invalid_param" });
    const wrong = createWooCommerceClient(http, woo.url, {
      platform: "woocommerce",
      key: woo.key,
      secret: "cs_wrong",
    });
    await expect(wrong.countOrders(since(), signal())).rejects.toThrow(
      /refused the credentials \(401/,
    );
  });
});
