/**
 * Order statuses through a real sync run against the fake platforms, on both engines:
 * - WooCommerce: an order first seen cancelled is skipped (reason `cancelled`: no customer, no
 *   charge); an order taken as processing and then cancelled in the store (WooCommerce moves its
 *   `date_modified_gmt`) is stored cancelled, stops counting, and leaves the customer's latest
 *   order, their order count and the store's window of totals;
 * - Shopify: the same with `cancelledAt` and with a full refund (REFUNDED); a partial refund
 *   still counts; an order first seen refunded is skipped as `refunded`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeShopify, startFakeShopify } from "../../../test/fakes/shopify-admin.js";
import { changeShopifyOrder, shopifyOrder } from "../../../test/fakes/shopify-orders.js";
import {
  type FakeWooCommerce,
  setWooOrderStatus,
  startFakeWooCommerce,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../test/support/databases.js";
import { connect, runSync, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { customerOrderCount, latestOrder } from "../enrichment/offline/order-history.js";
import { createStoreWindows } from "../enrichment/offline/store-order-window.js";
import { listConnections } from "./list-connections.js";

const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`order statuses through sync (${engine.name})`, () => {
    let app: TestApp;
    let account: TestAccount;
    let woo: FakeWooCommerce | undefined;
    let shopify: FakeShopify | undefined;
    let n = 0;

    beforeAll(async () => {
      app = await startTestApp(engine, { env: STORE_SYNC_ENV });
    });
    afterAll(async () => {
      await app?.close();
      await woo?.close();
      await shopify?.close();
    });
    beforeEach(async () => {
      account = await app.createAccount({ name: `Status sync ${++n}` });
    });

    const db = () => app.deps.db.kysely;
    const order = (externalId: string | number) =>
      db()
        .selectFrom("orders")
        .select(["status", "counts", "status_at", "customer_id", "total"])
        .where("store_id", "=", account.storeId)
        .where("external_order_id", "=", String(externalId))
        .executeTakeFirst();
    const customerOf = (email: string) =>
      db()
        .selectFrom("customers")
        .select("id")
        .where("store_id", "=", account.storeId)
        .where("email_normalized", "=", email)
        .executeTakeFirst();
    const charges = async () =>
      Number(
        (
          await db()
            .selectFrom("usage_charges")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("store_id", "=", account.storeId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    /** The store's window as a fresh process reads it (no cached window). */
    const windowTotals = () =>
      createStoreWindows().read(db(), account.storeId, "USD", app.deps.clock.now());
    const skipReasons = async () =>
      (await listConnections(db(), account.accountId))[0]?.skipReasons ?? {};

    it("WooCommerce: first seen cancelled is skipped; processing then cancelled stops counting", async () => {
      await woo?.close();
      woo = await startFakeWooCommerce();
      const buyer = `woo-${n}@acme.com`;
      const never = `never-${n}@acme.com`;
      const kept = wooOrder(buyer, ago(3 * HOUR), { total: "100.00" });
      const later = wooOrder(buyer, ago(2 * HOUR), { total: "777.00" });
      woo.orders.push(kept, later, wooOrder(never, ago(HOUR), { status: "cancelled" }));
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: woo.url,
        credentials: { platform: "woocommerce", key: woo.key, secret: woo.secret },
        backfillDays: 30,
      });
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 2 });
      expect(await skipReasons()).toEqual({ cancelled: 1 });
      expect(await customerOf(never)).toBeUndefined();
      expect(await charges()).toBe(1);
      const customerId = (await customerOf(buyer))?.id ?? "";
      expect(await latestOrder(db(), customerId)).toMatchObject({ total: "777.00" });
      expect(await windowTotals()).toContain(777);

      setWooOrderStatus(later, "cancelled");
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 0 });
      expect(await order(later.id)).toMatchObject({
        status: "cancelled",
        counts: 0,
        status_at: Date.parse(`${later.date_modified_gmt}Z`),
      });
      expect(await order(kept.id)).toMatchObject({ status: "processing", counts: 1 });
      // A held order that changed is no skip: the counters stay as they were.
      expect(await skipReasons()).toEqual({ cancelled: 1 });
      expect(await latestOrder(db(), customerId)).toEqual({
        kind: "order",
        total: "100.00",
        currency: "USD",
      });
      expect(await customerOrderCount(db(), customerId)).toBe(1);
      expect(await windowTotals()).not.toContain(777);
      expect(await windowTotals()).toContain(100);
      expect(await charges()).toBe(1);
    });

    it("Shopify: cancelled and fully refunded stop counting, partially refunded counts, first seen refunded is skipped", async () => {
      await shopify?.close();
      shopify = await startFakeShopify();
      const email = (k: string) => `shop-${k}-${n}@acme.com`;
      const cancelled = shopifyOrder(email("a"), ago(4 * HOUR), { total: "310.00" });
      const refunded = shopifyOrder(email("a"), ago(3 * HOUR), { total: "320.00" });
      const partly = shopifyOrder(email("a"), ago(2 * HOUR), { total: "330.00" });
      const neverPaid = shopifyOrder(email("b"), ago(HOUR), { displayFinancialStatus: "REFUNDED" });
      shopify.orders.push(cancelled, refunded, partly, neverPaid);
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
        backfillDays: 30,
      });
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 3 });
      expect(await skipReasons()).toEqual({ refunded: 1 });
      expect(await customerOf(email("b"))).toBeUndefined();
      const customerId = (await customerOf(email("a")))?.id ?? "";
      expect(await customerOrderCount(db(), customerId)).toBe(3);
      expect(await order(cancelled.legacyResourceId)).toMatchObject({ status: "paid", counts: 1 });

      changeShopifyOrder(cancelled, { cancelled: true });
      changeShopifyOrder(refunded, { financialStatus: "REFUNDED" });
      changeShopifyOrder(partly, { financialStatus: "PARTIALLY_REFUNDED" });
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 0 });
      expect(await order(cancelled.legacyResourceId)).toMatchObject({
        status: "cancelled",
        counts: 0,
        status_at: Date.parse(cancelled.updatedAt),
      });
      expect(await order(refunded.legacyResourceId)).toMatchObject({
        status: "refunded",
        counts: 0,
      });
      expect(await order(partly.legacyResourceId)).toMatchObject({
        status: "partially_refunded",
        counts: 1,
      });
      expect(await customerOrderCount(db(), customerId)).toBe(1);
      expect(await latestOrder(db(), customerId)).toMatchObject({ total: "330.00" });
      const totals = await windowTotals();
      expect(totals).toContain(330);
      expect(totals).not.toContain(310);
      expect(totals).not.toContain(320);
      expect(await charges()).toBe(1);
    });
  });
}
