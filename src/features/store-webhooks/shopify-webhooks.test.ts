/**
 * The Shopify webhook client against the fake Admin GraphQL API: subscribe() creates the three
 * order topics once and is idempotent (a second call, or a racing one, creates nothing more),
 * list() sees only Velvet's address, remove() deletes and takes an already-gone subscription
 * calmly, and a missing read_orders scope is a clear PlatformError.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeShopify, startFakeShopify } from "../../../test/fakes/shopify-admin.js";
import type { ShopifyCredentials } from "../store-sync/credentials.js";
import {
  createPlatformHttp,
  PlatformError,
  type PlatformHttp,
} from "../store-sync/platform-http.js";
import { createShopifyWebhooks } from "./shopify-webhooks.js";

const ACCESS = { allowPrivate: true, apiVersion: "2026-10" };
const signal = new AbortController().signal;
const ADDRESS = "http://127.0.0.1:9/webhooks/shopify/conn-1";

describe("Shopify webhook subscriptions", () => {
  let http: PlatformHttp;
  let shopify: FakeShopify;

  beforeAll(() => {
    http = createPlatformHttp({ allowPrivate: true, timeoutMs: 5000 });
  });
  afterAll(async () => {
    await http.close();
  });
  afterEach(async () => {
    await shopify?.close();
  });

  const client = (credentials?: ShopifyCredentials) =>
    createShopifyWebhooks(
      http,
      shopify.shop,
      credentials ?? { platform: "shopify", token: shopify.token },
      ACCESS,
    );
  const creates = () =>
    shopify.requests.filter((r) => r.path === "graphql" && r.variables.topic !== undefined).length;

  it("subscribe creates the three order topics, then nothing more", async () => {
    shopify = await startFakeShopify();
    const made = await client().subscribe(ADDRESS, "unused", signal);
    expect(made.map((s) => s.topic).sort()).toEqual([
      "ORDERS_CANCELLED",
      "ORDERS_CREATE",
      "ORDERS_UPDATED",
    ]);
    for (const s of made) {
      expect(s).toMatchObject({ address: ADDRESS, active: true });
      expect(s.id).toMatch(/^gid:\/\/shopify\/WebhookSubscription\/\d+$/);
    }
    expect(shopify.subscriptions.map((s) => s.format)).toEqual(["JSON", "JSON", "JSON"]);
    expect(creates()).toBe(3);

    const again = await client().subscribe(ADDRESS, "unused", signal);
    expect(again.map((s) => s.id).sort()).toEqual(made.map((s) => s.id).sort());
    expect(creates()).toBe(3);
    expect(shopify.subscriptions).toHaveLength(3);
  });

  it("two racing subscribes end with one subscription per topic (the second is 'already taken')", async () => {
    shopify = await startFakeShopify();
    const [a, b] = await Promise.all([
      client().subscribe(ADDRESS, "x", signal),
      client().subscribe(ADDRESS, "x", signal),
    ]);
    expect(shopify.subscriptions).toHaveLength(3);
    expect(a).toHaveLength(3);
    expect(b).toHaveLength(3);
  });

  it("creates only the topic that is missing", async () => {
    shopify = await startFakeShopify();
    const made = await client().subscribe(ADDRESS, "x", signal);
    const cancelled = made.find((s) => s.topic === "ORDERS_CANCELLED");
    await client().remove([cancelled?.id ?? ""], signal);
    const again = await client().subscribe(ADDRESS, "x", signal);
    expect(again).toHaveLength(3);
    expect(creates()).toBe(3 + 1);
  });

  it("list sees only the subscriptions at Velvet's address", async () => {
    shopify = await startFakeShopify();
    await client().subscribe(ADDRESS, "x", signal);
    await client().subscribe("https://elsewhere.example/hooks", "x", signal);
    const listed = await client().list(ADDRESS, signal);
    expect(listed).toHaveLength(3);
    expect(listed.every((s) => s.address === ADDRESS)).toBe(true);
    expect(shopify.subscriptions).toHaveLength(6);
  });

  it("remove deletes them, and one already gone is not an error", async () => {
    shopify = await startFakeShopify();
    const made = await client().subscribe(ADDRESS, "x", signal);
    const ids = made.map((s) => s.id);
    await client().remove(ids, signal);
    expect(await client().list(ADDRESS, signal)).toEqual([]);
    await expect(client().remove(ids, signal)).resolves.toBeUndefined();
  });

  it("a Dev Dashboard app subscribes with its client-credentials token", async () => {
    shopify = await startFakeShopify();
    const credentials: ShopifyCredentials = {
      platform: "shopify",
      clientId: shopify.clientId,
      clientSecret: shopify.clientSecret,
    };
    expect(await client(credentials).subscribe(ADDRESS, "x", signal)).toHaveLength(3);
    expect(shopify.subscriptions.every((s) => s.signWith === shopify.clientSecret)).toBe(true);
  });

  it("another app's subscriptions at the same address are neither listed nor deleted", async () => {
    shopify = await startFakeShopify();
    const legacy = await client().subscribe(ADDRESS, "x", signal);
    const app = client({
      platform: "shopify",
      clientId: shopify.clientId,
      clientSecret: shopify.clientSecret,
    });
    expect(await app.list(ADDRESS, signal)).toEqual([]);
    await app.remove(
      legacy.map((s) => s.id),
      signal,
    );
    expect(shopify.subscriptions).toHaveLength(3);
    expect(await app.subscribe(ADDRESS, "x", signal)).toHaveLength(3);
    expect(shopify.subscriptions).toHaveLength(6);
  });

  it("without read_orders Shopify refuses the order topics: a broken connection saying which scope", async () => {
    shopify = await startFakeShopify({ scopes: "read_customers" });
    const error = await client()
      .subscribe(ADDRESS, "x", signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).failure.kind).toBe("broken");
    expect((error as PlatformError).message).toMatch(/read_orders scope.*reconnect/);
    expect(shopify.subscriptions).toHaveLength(0);
  });

  it("without protected customer data access the refusal says what to request", async () => {
    shopify = await startFakeShopify({ protectedCustomerData: false });
    await expect(client().subscribe(ADDRESS, "x", signal)).rejects.toThrow(
      /protected customer data/,
    );
  });
});
