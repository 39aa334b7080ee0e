/**
 * WooCommerce sync against the fake REST API v3, on both engines: every page arrives (paging
 * headers, basic auth), an order modified while the pass reads does not push another out of
 * reach, a refused key breaks the connection, a run that dies mid-page loses and duplicates
 * nothing, and plain http is refused unless private addresses are allowed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
  touchWooOrder,
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
import { normalizeSiteUrl } from "./woocommerce-client.js";

const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

describe("WooCommerce site address", () => {
  it("is https only, unless private addresses are allowed", () => {
    expect(normalizeSiteUrl("https://shop.example/", false)).toBe("https://shop.example");
    expect(() => normalizeSiteUrl("http://shop.example", false)).toThrow(/must start with https/);
    expect(normalizeSiteUrl("http://127.0.0.1:8080", true)).toBe("http://127.0.0.1:8080");
    expect(() => normalizeSiteUrl("https://ck:cs@shop.example", false)).toThrow(
      /without a user name, password or query/,
    );
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`WooCommerce sync (${engine.name})`, () => {
    let app: TestApp;
    let woo: FakeWooCommerce;
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
      await woo?.close();
      woo = await startFakeWooCommerce();
      account = await app.createAccount({ name: `Woo ${++n}` });
    });

    const connectWoo = () =>
      connect(app.deps, {
        accountId: account.accountId,
        shop: woo.url,
        credentials: { platform: "woocommerce", key: woo.key, secret: woo.secret },
      });

    it("pulls every page with basic auth, and then only what changed", async () => {
      // Distinct seconds: WooCommerce dates have no milliseconds.
      for (let i = 0; i < 120; i++)
        woo.orders.push(wooOrder(`w-${n}-${i}@navy-systems.com`, ago(20 * DAY - i * 60_000)));
      const id = await connectWoo();
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 120 });
      const orders = await storeOrders(app.deps, account.storeId);
      expect(orders).toHaveLength(120);
      const sample = woo.orders[7];
      const row = orders.find((o) => o.external_order_id === String(sample?.id));
      expect(Number(row?.created_at)).toBe(Date.parse(`${sample?.date_created_gmt}Z`));
      const asked = woo.requests.at(-1)?.query;
      expect(asked?.get("orderby")).toBe("modified");
      expect(asked?.get("dates_are_gmt")).toBe("true");

      woo.orders.push(wooOrder(`w-${n}-new@navy-systems.com`, new Date()));
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 1 });
      expect(await storeOrders(app.deps, account.storeId)).toHaveLength(121);
    });

    it("an order modified while a pass reads does not push another one out of reach", async () => {
      for (let i = 0; i < 100; i++)
        woo.orders.push(wooOrder(`m-${n}-${i}@acme.com`, ago(10 * DAY - i * 60_000)));
      const id = await connectWoo();
      // After the first page is stored, an order of that page is modified (it moves to the end,
      // and with page numbers everything after it would shift back by one).
      let stored = 0;
      const run = runSync(app.deps, id, () => {
        stored += 1;
        if (stored === 50) {
          const first = woo.orders[0];
          if (first) touchWooOrder(first);
        }
      });
      expect(await run).toMatchObject({ kind: "synced", newOrders: 100 });
      expect(await storeOrders(app.deps, account.storeId)).toHaveLength(100);
    });

    it("a refused key breaks the connection, shown with the error; no further calls", async () => {
      woo.orders.push(wooOrder(`r-${n}@acme.com`, ago(DAY)));
      const id = await connectWoo();
      // Refused with the header and again with the key in the query string.
      const refused = {
        status: 401,
        body: '{"code":"woocommerce_rest_cannot_view","message":"Sorry, you cannot list resources.","data":{"status":401}}',
      };
      woo.reply(refused, refused);
      expect((await runSync(app.deps, id)).kind).toBe("broken");
      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view).toMatchObject({ state: "broken", credentials: `…${woo.secret.slice(-4)}` });
      expect(view?.lastError).toContain("Sorry, you cannot list resources");
      const calls = woo.requests.length;
      expect(await runSync(app.deps, id)).toEqual({ kind: "idle" });
      expect(woo.requests.length).toBe(calls);
      await expect(
        connect(app.deps, {
          accountId: account.accountId,
          shop: woo.url,
          credentials: { platform: "woocommerce", key: woo.key, secret: "cs_wrong" },
        }),
      ).rejects.toThrow(/WooCommerce did not accept the connection/);
    });

    it("a server error is retried later with a growing backoff", async () => {
      const id = await connectWoo();
      woo.reply({ status: 503, body: "busy" }, { status: 503, body: "busy" });
      const first = await runSync(app.deps, id);
      const second = await runSync(app.deps, id);
      expect(first).toMatchObject({ kind: "failed", delayMs: 60_000 });
      expect(second).toMatchObject({ kind: "failed", delayMs: 120_000 });
      expect((await connectionRow(app.deps, id)).state).toBe("active");
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 0 });
      expect((await connectionRow(app.deps, id)).failures).toBe(0);
    });

    it("a run that dies mid-page stores nothing of it; the next run leaves no gap and no duplicate", async () => {
      for (let i = 0; i < 90; i++)
        woo.orders.push(wooOrder(`k-${n}-${i}@acme.com`, ago(DAY - i * 60_000)));
      const id = await connectWoo();
      let seen = 0;
      await expect(
        runSync(app.deps, id, () => {
          if (++seen === 60) throw new Error("killed in the middle of page 2");
        }),
      ).rejects.toThrow("killed");
      expect(await storeOrders(app.deps, account.storeId)).toHaveLength(50);
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 40 });
      const orders = await storeOrders(app.deps, account.storeId);
      expect(new Set(orders.map((o) => o.external_order_id)).size).toBe(90);
      expect(orders).toHaveLength(90);
    });
  });
}
