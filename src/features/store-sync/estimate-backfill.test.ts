/**
 * A connection's dry run against the fake platforms, on both engines: a Shopify shop and a
 * WooCommerce site east of UTC with orders in and out of the window, some from customers the
 * store already holds, some test or unpaid. The figures are the ones the sync then makes, the
 * budget's verdict is right both ways, the credentials are refused as a connection refuses them,
 * Shopify's AT_LEAST is said as such, and nothing at all is written.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
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
import { ENGINES } from "../../../test/support/databases.js";
import {
  connect,
  runSync,
  STORE_SYNC_ENV,
  testPlatformHttp,
} from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { changeAccountSettings } from "../accounts/settings/change-account-settings.js";
import { cliActor } from "../audit/audit-actor.js";
import { recordProviderSpend } from "../billing/provider-spend.js";
import type { ConnectStoreInput } from "./connect-store.js";
import { estimateLines } from "./describe-estimate.js";
import { estimateBackfill } from "./estimate-backfill.js";

const describeEstimate = (e: Parameters<typeof estimateLines>[0]) =>
  estimateLines(e, "a shorter --backfill-days").join("\n");

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

/** PDL at $0.28 and EnrichLayer at $0.30 a lookup: $0.58 a new customer. */
const ENV = {
  ...STORE_SYNC_ENV,
  PDL_API_KEY: "pdl-test-key",
  PDL_PRICE_USD: "0.28",
  ENRICHLAYER_API_KEY: "el-test-key",
  ENRICHLAYER_PRICE_USD: "0.30",
};

const TABLES = [
  "store_connections",
  "audit_events",
  "jobs",
  "customers",
  "orders",
  "usage_charges",
  "budget_months",
  "provider_spend",
] as const;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a store connection's dry run (${engine.name})`, () => {
    let app: TestApp;
    let shopify: FakeShopify | undefined;
    let woo: FakeWooCommerce | undefined;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      app = await startTestApp(engine, { env: ENV });
    });
    afterAll(async () => {
      await app?.close();
      await shopify?.close();
      await woo?.close();
    });
    beforeEach(async () => {
      account = await app.createAccount({ name: `Dry run ${++n}` });
    });

    const snapshot = async () => {
      const counts: Record<string, number> = {};
      for (const table of TABLES) {
        const row = await app.deps.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as("n"))
          .executeTakeFirstOrThrow();
        counts[table] = Number(row.n);
      }
      return counts;
    };
    const estimate = async (input: Partial<Omit<ConnectStoreInput, "actor">>) => {
      const http = testPlatformHttp();
      try {
        return await estimateBackfill(app.deps, http, {
          accountId: account.accountId,
          shop: "",
          credentials: { platform: "woocommerce", key: "", secret: "" },
          ...input,
        });
      } finally {
        await http.close();
      }
    };
    /** A customer the store holds already (from the API), with one order. */
    const stored = async (email: string, orderId: string) => {
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Ada",
        lastName: "Lovelace",
        order: { id: orderId, total: "10.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
    };
    /** The budget, with $2.80 of it spent this month: what is left is the budget less $2.80. */
    const budget = async (usd: string) => {
      await changeAccountSettings(app.deps, {
        accountId: account.accountId,
        values: { monthlyBudgetUsd: usd },
        actor: cliActor("test"),
      });
    };
    const customers = async () =>
      Number(
        (
          await app.deps.db.kysely
            .selectFrom("customers")
            .select((eb) => eb.fn.countAll<number | string>().as("n"))
            .where("store_id", "=", account.storeId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("Shopify: orders in the window, the new customers counted, the cost, the budget both ways; nothing written", async () => {
      shopify = await startFakeShopify();
      const s = shopify;
      const tag = `s${n}`;
      const a1 = `a1-${tag}@navy-systems.com`;
      s.orders.push(
        shopifyOrder(a1, ago(2 * DAY)),
        shopifyOrder(a1, ago(DAY)), // a repeat buyer: one customer
        shopifyOrder(`a2-${tag}@navy-systems.com`, ago(3 * DAY)),
        shopifyOrder(`a3-${tag}@navy-systems.com`, ago(10 * DAY)),
        shopifyOrder(`a4-${tag}@navy-systems.com`, ago(29 * DAY)),
        shopifyOrder(`stored1-${tag}@navy-systems.com`, ago(4 * DAY)),
        { ...shopifyOrder(`test-${tag}@navy-systems.com`, ago(5 * DAY)), test: true },
        // Created before the window, updated in it: the backfill reads it.
        {
          ...shopifyOrder(`b1-${tag}@navy-systems.com`, ago(45 * DAY)),
          updatedAt: ago(2 * DAY).toISOString(),
        },
        shopifyOrder(`out1-${tag}@navy-systems.com`, ago(40 * DAY)),
        shopifyOrder(`out2-${tag}@navy-systems.com`, ago(100 * DAY)),
      );
      const storedOrder = shopifyOrder(`stored2-${tag}@navy-systems.com`, ago(6 * DAY));
      s.orders.push(storedOrder);
      await stored(`stored1-${tag}@navy-systems.com`, `api-${tag}`);
      await stored(`stored2-${tag}@navy-systems.com`, storedOrder.legacyResourceId);
      await recordProviderSpend(
        app.deps.db.kysely,
        account.accountId,
        [{ provider: "pdl", lookups: 10, unitPriceUsd: "0.28" }],
        Date.now(),
      );
      await budget("10");
      const input = {
        shop: s.shop,
        credentials: {
          platform: "shopify" as const,
          clientId: s.clientId,
          clientSecret: s.clientSecret,
        },
        backfillDays: 30,
      };
      const before = await snapshot();

      const covered = await estimate(input);
      expect(covered).toMatchObject({
        platform: "shopify",
        reconnect: false,
        backfillDays: 30,
        backfillCut: null,
        orders: { count: 9, precision: "exact" },
        skipReasons: { "test order": 1 },
        alreadyStored: 1,
        newCustomers: 5,
        newCustomersPrecision: "exact",
        charges: 5,
        amountUsd: "0.25",
        providers: [
          { provider: "pdl", lookups: 5, amountUsd: "1.40" },
          { provider: "enrichlayer", lookups: 5, amountUsd: "1.50" },
        ],
        providerCostUsd: "2.90",
        budgetUsd: "10",
        budgetLeftUsd: "7.20",
        budgetCovers: true,
      });
      // The count is Shopify's ordersCount with its documented limit, charged to the bucket.
      const counts = s.requests.filter((r) => r.variables.limit !== undefined);
      expect(counts).toHaveLength(1);
      expect(counts[0]).toMatchObject({ answered: 200, cost: 1 });
      expect(counts[0]?.variables).toMatchObject({ limit: 10_000 });

      await budget("5");
      const short = await estimate(input);
      expect(short).toMatchObject({
        providerCostUsd: "2.90",
        budgetLeftUsd: "2.20",
        budgetCovers: false,
      });
      expect(describeEstimate(short)).toContain(
        "Provider lookups: at most $2.90 (pdl $1.40, enrichlayer $1.50); $2.20 left of the $5.00 monthly budget does not cover it",
      );
      expect(describeEstimate(short)).toContain("Would charge: 5 enrichments, $0.25");
      expect(describeEstimate(short)).toContain(
        "Not taken (left out of the figures): test order 1",
      );

      // The client-credentials grant was made (as a connection makes it), and nothing was kept:
      // no connection, no token, no job, no audit event, no customer, no charge, no spend.
      expect(s.requests.filter((r) => r.path === "token").length).toBe(2);
      const after = await snapshot();
      expect({ ...after, audit_events: (after.audit_events ?? 0) - 1 }).toEqual(before); // the budget change

      // The sync then makes exactly these new customers.
      const held = await customers();
      const id = await connect(app.deps, { accountId: account.accountId, ...input });
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced" });
      expect((await customers()) - held).toBe(5);

      // Connected: a dry run says it would only reconnect.
      const again = await estimate(input);
      expect(again).toMatchObject({ reconnect: true, backfillDays: null, newCustomers: 0 });
      expect(describeEstimate(again)).toMatch(/connected already/);
    });

    it("Shopify: refused as a connection is refused; the 60-day cut without read_all_orders", async () => {
      await shopify?.close();
      shopify = await startFakeShopify({ scopes: "read_orders,read_customers" });
      const s = shopify;
      s.orders.push(shopifyOrder(`old-${n}@acme.com`, ago(70 * DAY)));
      s.orders.push(shopifyOrder(`recent-${n}@acme.com`, ago(30 * DAY)));
      const before = await snapshot();
      const cut = await estimate({
        shop: s.shop,
        credentials: { platform: "shopify", token: s.token },
        backfillDays: 90,
      });
      expect(cut).toMatchObject({
        backfillDays: 60,
        backfillCut: { asked: 90 },
        orders: { count: 1, precision: "exact" },
        newCustomers: 1,
      });
      expect(describeEstimate(cut)).toMatch(/Only 60 of the 90 days asked: .*read_all_orders/);
      const none = await estimate({
        shop: s.shop,
        credentials: { platform: "shopify", token: s.token },
        backfillDays: 0,
      });
      expect(none).toMatchObject({ backfillDays: 0, newCustomers: 0, charges: 0 });
      expect(describeEstimate(none)).toContain("No past orders would be read");

      await expect(
        estimate({
          shop: s.shop,
          credentials: { platform: "shopify", clientId: s.clientId, clientSecret: "nope" },
        }),
      ).rejects.toThrow(/refused the app's client id and secret.*Dev Dashboard/);
      s.options.protectedCustomerData = false;
      await expect(
        estimate({ shop: s.shop, credentials: { platform: "shopify", token: s.token } }),
      ).rejects.toThrow(/protected customer data/);
      await expect(
        estimate({ shop: s.shop, credentials: { platform: "shopify", token: "shpat_wrong" } }),
      ).rejects.toThrow(/Shopify did not accept the connection: the store refused the credentials/);
      expect(await snapshot()).toEqual(before);
    });

    it("Shopify: above the read limit an upper bound; above Shopify's count limit, 'at least 10,000 orders'", async () => {
      await shopify?.close();
      shopify = await startFakeShopify();
      const s = shopify;
      for (let i = 0; i < 600; i++)
        s.orders.push(shopifyOrder(`many-${n}-${i}@acme.com`, ago(DAY + i * 1000)));
      s.orders.push({ ...shopifyOrder(`t-${n}@acme.com`, ago(DAY)), test: true });
      const input = {
        shop: s.shop,
        credentials: { platform: "shopify" as const, token: s.token },
        backfillDays: 30,
      };
      const bound = await estimate(input);
      expect(bound).toMatchObject({
        orders: { count: 601, precision: "exact" },
        skipReasons: null,
        newCustomers: 601,
        newCustomersPrecision: "at_most",
        providerCostUsd: "348.58",
        budgetCovers: null,
      });
      expect(describeEstimate(bound)).toMatch(
        /New customers: at most 601 .*test and unpaid orders included/,
      );

      for (let i = 600; i < 10_050; i++)
        s.orders.push(shopifyOrder(`many-${n}-${i}@acme.com`, ago(2 * DAY + i * 100)));
      const capped = await estimate(input);
      expect(capped).toMatchObject({
        orders: { count: 10_000, precision: "at_least" },
        newCustomers: 10_000,
        newCustomersPrecision: "unknown",
        amountUsd: "500.00",
      });
      const text = describeEstimate(capped);
      expect(text).toContain("at least 10,000 orders");
      expect(text).toMatch(/New customers: unknown; .*can cost more/);
    });

    it("WooCommerce east of UTC: the window by GMT, unpaid and cancelled orders left out, stored customers left out", async () => {
      woo = await startFakeWooCommerce({ utcOffsetMinutes: 9 * 60 });
      const w = woo;
      const tag = `w${n}`;
      w.orders.push(
        wooOrder(`w1-${tag}@acme.com`, ago(DAY)),
        wooOrder(`w2-${tag}@acme.com`, ago(2 * DAY), { status: "completed" }),
        wooOrder(`w2-${tag}@acme.com`, ago(3 * DAY), { status: "on-hold" }),
        wooOrder(`stored-${tag}@acme.com`, ago(4 * DAY)),
        wooOrder(`c1-${tag}@acme.com`, ago(5 * DAY), { status: "cancelled" }),
        wooOrder(`p1-${tag}@acme.com`, ago(6 * DAY), { status: "pending" }),
        wooOrder(`f1-${tag}@acme.com`, ago(7 * DAY), { status: "failed" }),
        wooOrder(`d1-${tag}@acme.com`, ago(8 * DAY), { status: "checkout-draft" }),
        wooOrder(`x1-${tag}@acme.com`, ago(9 * DAY), { status: "trash" }),
        // Two hours inside the window: a bound sent with a zone would lose it at UTC+9.
        wooOrder(`edge-${tag}@acme.com`, ago(30 * DAY - 2 * HOUR)),
        wooOrder(`out-${tag}@acme.com`, ago(30 * DAY + 2 * HOUR)),
        wooOrder(`old-${tag}@acme.com`, ago(40 * DAY)),
      );
      await stored(`stored-${tag}@acme.com`, `api-${tag}`);
      await budget("3");
      const input = {
        shop: w.url,
        credentials: { platform: "woocommerce" as const, key: w.key, secret: w.secret },
        backfillDays: 30,
      };
      const before = await snapshot();
      const result = await estimate(input);
      expect(result).toMatchObject({
        platform: "woocommerce",
        orders: { count: 9, precision: "exact" },
        // A cancelled order makes no customer: the sync skips it (write-pulled-orders.ts).
        skipReasons: {
          "awaiting payment": 1,
          "payment failed": 1,
          "checkout draft": 1,
          cancelled: 1,
        },
        alreadyStored: 0,
        newCustomers: 3,
        newCustomersPrecision: "exact",
        amountUsd: "0.15",
        providerCostUsd: "1.74",
        budgetLeftUsd: "3.00",
        budgetCovers: true,
      });
      // The count: X-WP-Total of a page of one, bounded in GMT without a zone.
      const counted = w.requests.find((r) => r.query.get("per_page") === "1");
      expect(counted?.query.get("modified_after")).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect(counted?.query.get("dates_are_gmt")).toBe("true");

      await budget("1.5");
      expect(await estimate(input)).toMatchObject({ budgetLeftUsd: "1.50", budgetCovers: false });

      await expect(
        estimate({ ...input, credentials: { ...input.credentials, secret: "cs_wrong" } }),
      ).rejects.toThrow(
        /WooCommerce did not accept the connection: the store refused the credentials \(401/,
      );
      const after = await snapshot();
      expect({ ...after, audit_events: (after.audit_events ?? 0) - 1 }).toEqual(before);

      const held = await customers();
      const id = await connect(app.deps, { accountId: account.accountId, ...input });
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced" });
      expect((await customers()) - held).toBe(3);
    });
  });
}
