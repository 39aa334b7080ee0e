/**
 * Shopify's own rules, replayed by the fake on both engines: a Dev Dashboard app connects with
 * its client id and secret and its expiring token is renewed (before it expires, and once more
 * on a 401) without ever breaking the connection; protected customer data withheld (data WITH
 * ACCESS_DENIED) is said as such; without read_all_orders the backfill is cut to 60 days and
 * the answer says so; test orders are skipped and counted; the query's cost is what Shopify
 * charges; other currencies and the Shopify customer's id are kept.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import { ENGINES } from "../../../test/support/databases.js";
import {
  connectionRow,
  runSync,
  STORE_SYNC_ENV,
  storeOrders,
  testPlatformHttp,
} from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { cliActor } from "../audit/audit-actor.js";
import { type ConnectStoreInput, connectStore } from "./connect-store.js";
import { listConnections } from "./list-connections.js";

const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Shopify's rules (${engine.name})`, () => {
    let app: TestApp;
    let shopify: FakeShopify;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      app = await startTestApp(engine, { env: STORE_SYNC_ENV });
    });
    afterAll(async () => {
      await app?.close();
      await shopify?.close();
    });
    beforeEach(async () => {
      account = await app.createAccount({ name: `Rules ${++n}` });
    });
    const fresh = async (options: Parameters<typeof startFakeShopify>[0] = {}) => {
      await shopify?.close();
      shopify = await startFakeShopify(options);
      return shopify;
    };
    const connectWith = async (input: Partial<Omit<ConnectStoreInput, "actor">> = {}) => {
      const http = testPlatformHttp();
      try {
        return await connectStore(app.deps, http, {
          accountId: account.accountId,
          shop: shopify.shop,
          credentials: {
            platform: "shopify",
            clientId: shopify.clientId,
            clientSecret: shopify.clientSecret,
          },
          actor: cliActor("test"),
          ...input,
        });
      } finally {
        await http.close();
      }
    };
    const grants = () => shopify.requests.filter((r) => r.path === "token").length;

    it("a Dev Dashboard app: the token comes from the grant, is sealed, and is renewed on a 401 without breaking", async () => {
      await fresh();
      shopify.orders.push(shopifyOrder(`cc-${n}@navy-systems.com`, ago(DAY)));
      const connectedAt = Date.now();
      const { connectionId: id } = await connectWith();
      expect(grants()).toBe(1);
      const row = await connectionRow(app.deps, id);
      // Orders come timed to the second: one of the connection's own second, after it, is live.
      expect(row.live_after % 1000).toBe(0);
      expect(row.live_after).toBeGreaterThanOrEqual(Math.floor(connectedAt / 1000) * 1000);
      expect(row.live_after).toBeLessThanOrEqual(Date.now());
      expect(row.credentials).not.toContain(shopify.clientSecret);
      expect(row.credentials_hint).toBe(`…${shopify.clientSecret.slice(-4)}`);

      // The token from connecting is still good: no new grant.
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 1 });
      expect(grants()).toBe(1);

      // A day later the token has expired: Shopify answers 401, the client asks again, once.
      shopify.expireTokens();
      shopify.orders.push(shopifyOrder(`cc2-${n}@navy-systems.com`, new Date()));
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 1 });
      expect(grants()).toBe(2);
      expect((await connectionRow(app.deps, id)).state).toBe("active");
      // The renewed token was saved: the next run uses it without a grant.
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced" });
      expect(grants()).toBe(2);
    });

    it("a token about to expire is renewed before the call", async () => {
      await fresh({ tokenTtlSeconds: 120 }); // inside the 5-minute margin
      const { connectionId: id } = await connectWith();
      const before = grants();
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced" });
      expect(grants()).toBe(before + 1);
      const refused = shopify.requests.filter((r) => r.path === "graphql" && r.answered === 401);
      expect(refused).toHaveLength(0);
    });

    it("a wrong client secret is refused at connect with what to check", async () => {
      await fresh();
      await expect(
        connectWith({
          credentials: { platform: "shopify", clientId: shopify.clientId, clientSecret: "nope" },
        }),
      ).rejects.toThrow(/refused the app's client id and secret.*Dev Dashboard/);
      await expect(
        connectWith({
          credentials: { platform: "shopify", token: "shpat_x", clientId: shopify.clientId },
        }),
      ).rejects.toThrow(/either the app's client id and client secret/);
    });

    it("protected customer data withheld: connect says so; a connection that loses it breaks with the same words", async () => {
      await fresh({ protectedCustomerData: false });
      shopify.orders.push(shopifyOrder(`pcd-${n}@acme.com`, ago(DAY)));
      await expect(connectWith()).rejects.toThrow(/protected customer data/);

      await fresh();
      shopify.orders.push(shopifyOrder(`pcd2-${n}@acme.com`, ago(DAY)));
      const { connectionId: id } = await connectWith();
      shopify.options.protectedCustomerData = false;
      shopify.orders.push(shopifyOrder(`pcd3-${n}@acme.com`, new Date()));
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "broken" });
      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view?.lastError).toMatch(/protected customer data/);
      expect(view?.lastError).not.toMatch(/read_orders scope/);
    });

    it("without read_all_orders the backfill is cut to 60 days, and the answer says so", async () => {
      await fresh({ scopes: "read_orders,read_customers" });
      shopify.orders.push(shopifyOrder(`old-${n}@acme.com`, ago(70 * DAY)));
      shopify.orders.push(shopifyOrder(`recent-${n}@acme.com`, ago(30 * DAY)));
      const connected = await connectWith({ backfillDays: 90 });
      expect(connected.backfillDays).toBe(60);
      expect(connected.backfillCut).toMatchObject({ asked: 90 });
      expect(connected.backfillCut?.reason).toMatch(/read_all_orders/);
      const cursor = JSON.parse((await connectionRow(app.deps, connected.connectionId)).cursor);
      expect(Date.now() - Date.parse(cursor.since)).toBeLessThan(60 * DAY + 60_000);

      // A fixed token reads its scopes from Shopify (currentAppInstallation).
      const other = await app.createAccount({ name: `Rules fixed ${n}` });
      const fixed = await connectWith({
        accountId: other.accountId,
        credentials: { platform: "shopify", token: shopify.token },
        backfillDays: 30,
      });
      expect(fixed.backfillCut).toBeNull();
      expect(fixed.backfillDays).toBe(30);
    });

    it("test orders are skipped and counted; other currencies and the customer's Shopify id are kept", async () => {
      await fresh();
      const real = shopifyOrder(`eur-${n}@acme.com`, ago(DAY), {
        total: "980.00",
        currency: "EUR",
      });
      const yen = shopifyOrder(`jpy-${n}@acme.com`, ago(DAY - 1000), {
        total: "150000",
        currency: "JPY",
      });
      const test = { ...shopifyOrder(`test-${n}@acme.com`, ago(DAY - 2000)), test: true };
      shopify.orders.push(real, yen, test);
      const { connectionId: id } = await connectWith();
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 2 });
      // Passes read the last order again (the overlap): it is not counted twice.
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 0 });
      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view).toMatchObject({ ordersSkipped: 1, skipReasons: { "test order": 1 } });
      const orders = await app.deps.db.kysely
        .selectFrom("orders")
        .innerJoin("customers", "customers.id", "orders.customer_id")
        .select(["orders.currency", "orders.total", "customers.shopify_customer_id"])
        .where("orders.store_id", "=", account.storeId)
        .orderBy("orders.external_order_id")
        .execute();
      expect(orders).toEqual([
        { currency: "EUR", total: "980.00", shopify_customer_id: real.customer?.id },
        { currency: "JPY", total: "150000", shopify_customer_id: yen.customer?.id },
      ]);
      expect(await storeOrders(app.deps, account.storeId)).toHaveLength(2);
    });

    it("an order whose billing address has no ZIP takes its shipping address, whole", async () => {
      await fresh();
      // A store that asks only a country at checkout: the billing address has no ZIP.
      const shipped = shopifyOrder(`shipped-${n}@acme.com`, ago(DAY), {
        billingAddress: {
          firstName: "Ada",
          lastName: "Lovelace",
          phone: null,
          city: null,
          provinceCode: null,
          zip: null,
          countryCodeV2: "GB",
        },
        shippingAddress: {
          city: "Beverly Hills",
          provinceCode: "CA",
          zip: "90210",
          countryCodeV2: "US",
        },
      });
      const billed = shopifyOrder(`billed-${n}@acme.com`, ago(DAY - 1000), {
        shippingAddress: { city: "Boston", provinceCode: "MA", zip: "02134", countryCodeV2: "US" },
      });
      const nowhere = shopifyOrder(`nowhere-${n}@acme.com`, ago(DAY - 2000), {
        billingAddress: null,
        shippingAddress: null,
      });
      shopify.orders.push(shipped, billed, nowhere);
      const { connectionId: id } = await connectWith();
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 3 });
      const address = (email: string) =>
        app.deps.db.kysely
          .selectFrom("customers")
          .select(["address_city", "address_state", "address_zipcode", "address_country"])
          .where("store_id", "=", account.storeId)
          .where("email", "=", email)
          .executeTakeFirst();
      expect(await address(`shipped-${n}@acme.com`)).toEqual({
        address_city: "Beverly Hills",
        address_state: "CA",
        address_zipcode: "90210",
        address_country: "US",
      });
      expect(await address(`billed-${n}@acme.com`)).toEqual({
        address_city: "Atherton",
        address_state: "CA",
        address_zipcode: "94027",
        address_country: "US",
      });
      expect(await address(`nowhere-${n}@acme.com`)).toEqual({
        address_city: null,
        address_state: null,
        address_zipcode: null,
        address_country: null,
      });
    });

    it("each page is charged what Shopify computes: 2 + 50 orders × 8 objects", async () => {
      await fresh();
      for (let i = 0; i < 3; i++)
        shopify.orders.push(shopifyOrder(`c-${n}-${i}@acme.com`, ago(DAY - i)));
      const { connectionId: id } = await connectWith();
      await runSync(app.deps, id);
      const pages = shopify.requests.filter((r) => r.variables.first === 50);
      expect(pages.length).toBeGreaterThan(0);
      expect(pages.every((r) => r.cost === 402)).toBe(true);
    });

    it("a query Shopify can never run (MAX_COST_EXCEEDED) is refused, not retried for ever", async () => {
      await fresh({ maximumAvailable: 300 }); // a page costs 402
      shopify.orders.push(shopifyOrder(`max-${n}@acme.com`, ago(DAY)));
      await expect(connectWith()).rejects.toThrow(
        /Shopify did not accept the connection: Shopify refused the query \(MAX_COST_EXCEEDED/,
      );
    });

    it("an app without read_orders is told which scope to add", async () => {
      await fresh({ scopes: "read_customers" });
      await expect(connectWith()).rejects.toThrow(
        /ACCESS_DENIED.*read_orders and read_customers scopes/,
      );
    });
  });
}
