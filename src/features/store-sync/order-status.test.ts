/**
 * Order statuses: how each platform's word maps to a status and whether it counts
 * (order-status.ts), and how write-pulled-orders.ts keeps them, on both engines: newer wins
 * (pending → paid; an older update read late changes nothing), an order Velvet holds that is
 * cancelled later stays with its new status and stops counting, one first seen cancelled,
 * refunded or voided is skipped without a customer or a charge, and an API order (no status)
 * takes the store's status when the store's copy arrives.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { shopifyOrder } from "../../../test/fakes/shopify-orders.js";
import { type WooOrderJson, wooOrder } from "../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../test/support/databases.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { customerOrderCount, latestOrder } from "../enrichment/offline/order-history.js";
import {
  notPurchasedReason,
  shopifyOrderStatus,
  statusCounts,
  wooOrderStatus,
} from "./order-status.js";
import { mapShopifyOrder } from "./shopify-order.js";
import type { PulledOrder } from "./store-platform.js";
import { mapWooOrder } from "./woocommerce-order.js";
import { writePulledOrders } from "./write-pulled-orders.js";

describe("order statuses", () => {
  it("Shopify: a cancellation wins; otherwise the financial status, lower case", () => {
    expect(shopifyOrderStatus("2026-01-02T03:04:05Z", "PAID")).toEqual({
      status: "cancelled",
      counts: false,
    });
    expect(shopifyOrderStatus(null, "PAID")).toEqual({ status: "paid", counts: true });
    expect(shopifyOrderStatus(null, "PENDING")).toEqual({ status: "pending", counts: true });
    expect(shopifyOrderStatus(null, "PARTIALLY_REFUNDED")).toEqual({
      status: "partially_refunded",
      counts: true,
    });
    for (const gone of ["REFUNDED", "VOIDED", "EXPIRED"])
      expect(shopifyOrderStatus(null, gone)).toEqual({ status: gone.toLowerCase(), counts: false });
    expect(shopifyOrderStatus(null, null)).toEqual({ status: null, counts: true });
  });

  it("WooCommerce: the order's status; cancelled, refunded and trash do not count", () => {
    for (const s of ["processing", "on-hold", "completed"])
      expect(wooOrderStatus(s)).toEqual({ status: s, counts: true });
    for (const s of ["cancelled", "refunded", "trash"])
      expect(wooOrderStatus(s)).toEqual({ status: s, counts: false });
    expect(statusCounts(null)).toBe(true);
  });

  it("names the skip of an order Velvet never held", () => {
    expect(notPurchasedReason("refunded")).toBe("refunded");
    expect(notPurchasedReason("voided")).toBe("voided");
    expect(notPurchasedReason("expired")).toBe("voided");
    expect(notPurchasedReason("cancelled")).toBe("cancelled");
    expect(notPurchasedReason("trash")).toBe("cancelled");
  });
});

/** The Woo order as WooCommerce would list it after a change of status at `at`. */
function wooAt(order: WooOrderJson, status: string, at: Date): PulledOrder {
  return mapWooOrder({
    ...order,
    status,
    date_modified_gmt: at.toISOString().replace(/\.\d{3}Z$/, ""),
  });
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`writing pulled orders with a status (${engine.name})`, () => {
    let app: TestApp;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      app = await startTestApp(engine, { env: STORE_SYNC_ENV });
    });
    afterAll(() => app?.close());
    beforeEach(async () => {
      account = await app.createAccount({ name: `Statuses ${++n}` });
    });

    const write = (orders: PulledOrder[]) =>
      app.deps.db.kysely.transaction().execute((trx) =>
        writePulledOrders(
          trx,
          app.deps,
          {
            id: "test-connection",
            account_id: account.accountId,
            store_id: account.storeId,
            live_after: 0,
          },
          orders,
          new Map(),
        ),
      );
    const stored = (externalId: string) =>
      app.deps.db.kysely
        .selectFrom("orders")
        .select(["status", "counts", "status_at", "customer_id"])
        .where("store_id", "=", account.storeId)
        .where("external_order_id", "=", externalId)
        .executeTakeFirst();
    const charges = async () =>
      Number(
        (
          await app.deps.db.kysely
            .selectFrom("usage_charges")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("store_id", "=", account.storeId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("newer wins: processing, then cancelled; a completed read late changes nothing", async () => {
      // WooCommerce dates are whole seconds.
      const t0 = new Date(Math.floor(Date.now() / 1000) * 1000 - 3 * 3_600_000);
      const o = wooOrder(`late-${n}@acme.com`, t0);
      const id = String(o.id);
      await write([wooAt(o, "processing", t0)]);
      expect(await stored(id)).toMatchObject({
        status: "processing",
        counts: 1,
        status_at: t0.getTime(),
      });

      const t2 = new Date(t0.getTime() + 2 * 3_600_000);
      const cancelled = await write([wooAt(o, "cancelled", t2)]);
      expect(cancelled.skips).toEqual([]);
      expect(cancelled.outcomes).toMatchObject([{ newOrder: false, newCustomer: false }]);
      const row = await stored(id);
      expect(row).toMatchObject({ status: "cancelled", counts: 0, status_at: t2.getTime() });

      // An update from between the two, read after the cancellation (an overlap, a retried
      // webhook): the order is already held, so nothing new is made, and its status stays.
      const t1 = new Date(t0.getTime() + 3_600_000);
      await write([wooAt(o, "completed", t1)]);
      expect(await stored(id)).toMatchObject({ status: "cancelled", counts: 0 });
      const customerId = row?.customer_id ?? "";
      expect(await customerOrderCount(app.deps.db.kysely, customerId)).toBe(0);
      expect(await latestOrder(app.deps.db.kysely, customerId)).toEqual({ kind: "none" });
    });

    it("pending, then paid: the status follows; both count", async () => {
      const t0 = new Date(Date.now() - 3_600_000);
      const node = shopifyOrder(`pay-${n}@acme.com`, t0, { displayFinancialStatus: "PENDING" });
      await write([mapShopifyOrder(node)]);
      expect(await stored(node.legacyResourceId)).toMatchObject({ status: "pending", counts: 1 });
      const t1 = new Date(t0.getTime() + 60_000).toISOString();
      await write([mapShopifyOrder({ ...node, displayFinancialStatus: "PAID", updatedAt: t1 })]);
      expect(await stored(node.legacyResourceId)).toMatchObject({
        status: "paid",
        counts: 1,
        status_at: Date.parse(t1),
      });
    });

    it("an order first seen cancelled, refunded or voided makes no customer and no charge", async () => {
      const at = new Date(Date.now() - 3_600_000);
      const emails = ["c", "r", "v", "x"].map((k) => `${k}-${n}@acme.com`);
      const orders = [
        wooAt(wooOrder(emails[0] as string, at), "cancelled", at),
        mapShopifyOrder(
          shopifyOrder(emails[1] as string, at, { displayFinancialStatus: "REFUNDED" }),
        ),
        mapShopifyOrder(
          shopifyOrder(emails[2] as string, at, { displayFinancialStatus: "VOIDED" }),
        ),
        mapShopifyOrder(shopifyOrder(emails[3] as string, at, { cancelledAt: at.toISOString() })),
      ];
      const written = await write(orders);
      expect(written.outcomes).toEqual([]);
      expect(written.skips).toEqual([
        { index: 0, reason: "cancelled" },
        { index: 1, reason: "refunded" },
        { index: 2, reason: "voided" },
        { index: 3, reason: "cancelled" },
      ]);
      const customers = await app.deps.db.kysely
        .selectFrom("customers")
        .select("id")
        .where("store_id", "=", account.storeId)
        .execute();
      expect(customers).toEqual([]);
      expect(await charges()).toBe(0);
    });

    it("an API order (no status) takes the store's status when the store's copy arrives", async () => {
      const at = new Date(Date.now() - 3_600_000);
      const node = shopifyOrder(`api-${n}@acme.com`, at);
      const res = await app.submit(account.apiKey, {
        email: `api-${n}@acme.com`,
        firstName: "Grace",
        lastName: "Hopper",
        order: { id: node.legacyResourceId, total: "1250.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
      expect(await stored(node.legacyResourceId)).toMatchObject({ status: null, counts: 1 });
      await write([mapShopifyOrder({ ...node, displayFinancialStatus: "REFUNDED" })]);
      expect(await stored(node.legacyResourceId)).toMatchObject({
        status: "refunded",
        counts: 0,
        status_at: at.getTime(),
      });
      expect(await charges()).toBe(1);
    });
  });
}
