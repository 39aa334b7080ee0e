/**
 * WordPress's and WooCommerce's own rules, replayed by the fake on both engines: sites at UTC+9,
 * +5:30 and −5 give every order once (the bound is sent as GMT without a zone, and the fake
 * shows what a zone would have cost); every status, where checkout drafts, pending and failed
 * orders are skipped with their reason and taken once paid; a host that strips the
 * Authorization header and a site on "Plain" permalinks both work, and what worked is saved.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
  touchWooOrder,
  WOO_STATUSES,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../test/support/databases.js";
import {
  connect,
  connectionRow,
  runSync,
  STORE_SYNC_ENV,
  storeOrders,
} from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { listConnections } from "./list-connections.js";
import { MAX_FAILURES_IN_A_ROW } from "./run-sync.js";

const HOUR = 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`WooCommerce's rules (${engine.name})`, () => {
    let app: TestApp;
    let woo: FakeWooCommerce | undefined;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      app = await startTestApp(engine, { env: STORE_SYNC_ENV });
    });
    afterAll(async () => {
      await app?.close();
      await woo?.close();
    });
    beforeEach(async () => {
      account = await app.createAccount({ name: `Woo rules ${++n}` });
    });
    const site = async (options: Parameters<typeof startFakeWooCommerce>[0] = {}) => {
      await woo?.close();
      woo = await startFakeWooCommerce(options);
      return woo;
    };
    const connectTo = (w: FakeWooCommerce) =>
      connect(app.deps, {
        accountId: account.accountId,
        shop: w.url,
        credentials: { platform: "woocommerce", key: w.key, secret: w.secret },
        backfillDays: 30,
      });

    for (const [zone, minutes] of [
      ["UTC+9", 9 * 60],
      ["UTC+5:30", 5 * 60 + 30],
      ["UTC−5", -5 * 60],
    ] as const) {
      it(`a site at ${zone} gives every order once, in a bounded number of calls`, async () => {
        const w = await site({ utcOffsetMinutes: minutes });
        // 150 orders over the last 15 hours, one every 6 minutes; then 10 new ones.
        for (let i = 0; i < 150; i++)
          w.orders.push(wooOrder(`tz-${n}-${i}@acme.com`, ago(15 * HOUR - i * 6 * 60_000)));
        const id = await connectTo(w);
        expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 150 });
        for (let i = 0; i < 10; i++)
          w.orders.push(wooOrder(`tz-${n}-new-${i}@acme.com`, ago(10_000 - i * 1000)));
        const calls = w.requests.length;
        expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 10 });
        expect(w.requests.length - calls).toBeLessThanOrEqual(2);
        expect(await storeOrders(app.deps, account.storeId)).toHaveLength(160);
        const bound = w.requests.at(-1)?.query.get("modified_after") ?? "";
        expect(bound).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      });
    }

    it("the fake applies WordPress's rule: a bound with a zone moves by the site's offset", async () => {
      const w = await site({ utcOffsetMinutes: 9 * 60 });
      w.orders.push(wooOrder(`rule-${n}@acme.com`, ago(3 * HOUR)));
      const since = new Date(Date.now() - 6 * HOUR).toISOString().slice(0, 19);
      const ask = (bound: string) =>
        fetch(`${w.url}/wp-json/wc/v3/orders?modified_after=${bound}&dates_are_gmt=true`, {
          headers: {
            authorization: `Basic ${Buffer.from(`${w.key}:${w.secret}`).toString("base64")}`,
          },
        }).then((r) => r.json() as Promise<unknown[]>);
      expect(await ask(since)).toHaveLength(1);
      expect(await ask(`${since}Z`)).toHaveLength(0); // six hours ago + 9 h: after the order
    });

    it("an order whose billing postcode is empty takes its shipping address, whole", async () => {
      const w = await site();
      const shipped = wooOrder(`shipped-${n}@acme.com`, ago(2 * HOUR));
      // WooCommerce sends every field of both blocks, "" for what the customer left out.
      shipped.billing = { ...shipped.billing, city: "", state: "", postcode: "", country: "GB" };
      shipped.shipping = { ...shipped.shipping, city: "Beverly Hills", postcode: "90210" };
      const billed = wooOrder(`billed-${n}@acme.com`, ago(HOUR));
      billed.shipping = { ...billed.shipping, city: "Boston", state: "MA", postcode: "02134" };
      w.orders.push(shipped, billed);
      const id = await connectTo(w);
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 2 });
      const rows = await app.deps.db.kysely
        .selectFrom("customers")
        .select(["email", "address_city", "address_state", "address_zipcode", "address_country"])
        .where("store_id", "=", account.storeId)
        .orderBy("email")
        .execute();
      expect(rows).toEqual([
        {
          email: `billed-${n}@acme.com`,
          address_city: "Atherton",
          address_state: "CA",
          address_zipcode: "94027",
          address_country: "US",
        },
        {
          email: `shipped-${n}@acme.com`,
          address_city: "Beverly Hills",
          address_state: "CA",
          address_zipcode: "90210",
          address_country: "US",
        },
      ]);
    });

    it("every status: drafts, pending, failed, cancelled and refunded orders are skipped with their reason, taken once paid", async () => {
      const w = await site();
      const orders = WOO_STATUSES.map((status, i) =>
        wooOrder(`st-${n}-${status}@acme.com`, ago(2 * HOUR - i * 60_000), { status }),
      );
      w.orders.push(...orders);
      const id = await connectTo(w);
      // processing, on-hold, completed: purchases; cancelled, refunded: placed but no purchase,
      // and Velvet did not hold them, so nothing is made of them; trash is not listed.
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 3 });
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 0 });
      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view?.skipReasons).toEqual({
        "awaiting payment": 1,
        "payment failed": 1,
        "checkout draft": 1,
        cancelled: 1,
        refunded: 1,
      });
      expect(view?.ordersSkipped).toBe(5);

      const pending = orders.find((o) => o.status === "pending");
      if (!pending) throw new Error("no pending order");
      pending.status = "processing"; // paid: WooCommerce modifies the order
      touchWooOrder(pending);
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 1 });
      const taken = await storeOrders(app.deps, account.storeId);
      expect(taken.map((o) => o.external_order_id)).toContain(String(pending.id));
    });

    it("a host that strips the Authorization header: the key goes in the query string, and that is saved", async () => {
      const w = await site({ stripsAuthorization: true });
      w.orders.push(wooOrder(`strip-${n}@acme.com`, ago(HOUR)));
      const id = await connectTo(w);
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 1 });
      const before = w.requests.length;
      await runSync(app.deps, id);
      const asked = w.requests.slice(before);
      expect(asked.map((r) => r.status)).toEqual([200]);
      expect(asked[0]?.query.get("consumer_key")).toBe(w.key);
      expect((await connectionRow(app.deps, id)).credentials).not.toContain(w.secret);
    });

    it("a site on Plain permalinks is read at ?rest_route=; its rupees stay rupees", async () => {
      const w = await site({ plainPermalinks: true, utcOffsetMinutes: 5 * 60 + 30 });
      w.orders.push(
        wooOrder(`plain-${n}@acme.com`, ago(HOUR), { total: "84999.00", currency: "INR" }),
      );
      const id = await connectTo(w);
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 1 });
      const [stored] = await app.deps.db.kysely
        .selectFrom("orders")
        .select(["currency", "total"])
        .where("store_id", "=", account.storeId)
        .execute();
      expect(stored).toEqual({ currency: "INR", total: "84999.00" });
      const before = w.requests.length;
      await runSync(app.deps, id);
      expect(w.requests.slice(before).map((r) => r.status)).toEqual([200]);
    });

    it("a request refused as it is (400) breaks; failures in a row end in broken, not for ever", async () => {
      const w = await site();
      const id = await connectTo(w);
      w.reply({
        status: 400,
        body: '{"code":"rest_invalid_param","message":"Invalid parameter(s): per_page"}',
      });
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "broken" });
      expect((await connectionRow(app.deps, id)).last_error).toContain("rest_invalid_param");

      const other = await app.createAccount({ name: `Woo give up ${n}` });
      const again = await connect(app.deps, {
        accountId: other.accountId,
        shop: w.url,
        credentials: { platform: "woocommerce", key: w.key, secret: w.secret },
      });
      w.reply({ status: 503, body: "busy" });
      expect(await runSync(app.deps, again)).toMatchObject({ kind: "failed" });
      await app.deps.db.kysely
        .updateTable("store_connections")
        .set({ failures: MAX_FAILURES_IN_A_ROW - 1 })
        .where("id", "=", again)
        .execute();
      w.reply({ status: 503, body: "busy" });
      expect(await runSync(app.deps, again)).toMatchObject({ kind: "broken" });
      expect((await connectionRow(app.deps, again)).last_error).toMatch(
        /gave up after 60 failed syncs/,
      );
    });
  });
}
