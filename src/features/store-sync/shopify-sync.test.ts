/**
 * Shopify sync against the fake Admin GraphQL API, on both engines, calling the sync run as the
 * job does: orders arrive through the order-intake use case; history is dated and raises no
 * alert; the cost throttle, THROTTLED and 429 are waited out; a refused token breaks the
 * connection; a run that dies in the middle of a page loses and duplicates nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
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
import { createStoreSyncTask, storeSyncJobKey } from "./sync-task.js";

const DAY = 24 * 60 * 60 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Shopify sync (${engine.name})`, () => {
    let app: TestApp;
    let shopify: FakeShopify;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      app = await startTestApp(engine, { env: STORE_SYNC_ENV });
    });
    afterAll(async () => {
      await app?.close();
    });
    beforeEach(async () => {
      await shopify?.close();
      shopify = await startFakeShopify();
      account = await app.createAccount({ name: `Shop ${++n}` });
    });
    afterAll(async () => {
      await shopify?.close();
    });

    const jobsOf = (customerIds: string[]) =>
      app.deps.db.kysely
        .selectFrom("jobs")
        .select(["job_key", "priority", "payload"])
        .where("task", "=", "enrich-customer")
        .execute()
        .then((rows) => rows.filter((r) => customerIds.some((id) => r.payload.includes(id))));

    it("pulls every page: history dated and quiet at backfill priority, new orders live", async () => {
      const email = (i: number) => `buyer-${n}-${i}@navy-systems.com`;
      for (let i = 0; i < 120; i++)
        shopify.orders.push(shopifyOrder(email(i), ago(30 * DAY - i * 1000)));
      shopify.orders.push(shopifyOrder(email(999), ago(200 * DAY))); // older than the backfill
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
        backfillDays: 90,
      });
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 120 });
      const orders = await storeOrders(app.deps, account.storeId);
      expect(orders).toHaveLength(120);
      const first = shopify.orders[0];
      const stored = orders.find((o) => o.external_order_id === first?.legacyResourceId);
      expect(Number(stored?.created_at)).toBe(Date.parse(first?.createdAt ?? ""));
      // 120 orders at 50 a page: 3 pages (the connect call read the first one to verify).
      const pages = shopify.requests.filter((r) => r.answered === 200 && r.variables.first);
      expect(pages.length).toBe(4);
      expect(pages[2]?.variables.after).toEqual(expect.any(String));
      const history = await jobsOf(orders.map((o) => o.customer_id));
      expect(history).toHaveLength(120);
      expect(history.every((j) => j.priority === 1 && j.payload.includes('"alerts":false'))).toBe(
        true,
      );

      // A new order, and an old one updated (already stored): only the new one is added, live.
      const live = shopifyOrder(email(1000), new Date());
      shopify.orders.push(live);
      const touched = shopify.orders[5];
      if (touched) touched.updatedAt = new Date().toISOString();
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 1 });
      const after = await storeOrders(app.deps, account.storeId);
      expect(after).toHaveLength(121);
      const liveRow = after.find((o) => o.external_order_id === live.legacyResourceId);
      const [liveJob] = await jobsOf([liveRow?.customer_id ?? "?"]);
      expect(liveJob?.priority).toBe(0);
      expect(liveJob?.payload).not.toContain('"alerts":false');

      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view).toMatchObject({ state: "active", ordersSynced: 121, lastError: null });
      expect(view?.credentials).toBe(`…${shopify.token.slice(-4)}`);
      expect(JSON.stringify(await connectionRow(app.deps, id))).not.toContain(shopify.token);
    });

    it("waits for the cost bucket, THROTTLED and 429 Retry-After, then goes on", async () => {
      await shopify.close();
      // 402 points a page as Shopify computes it (2 + 50 orders × 8 objects) out of 450, 400
      // restored a second: each next page must wait ~0.9 s.
      shopify = await startFakeShopify({ maximumAvailable: 450, restoreRate: 400 });
      for (let i = 0; i < 130; i++)
        shopify.orders.push(shopifyOrder(`t-${n}-${i}@acme.com`, ago(DAY - i)));
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
      });
      shopify.reply("throttled", {
        status: 429,
        body: '{"errors":"Throttled"}',
        headers: { "retry-after": "1" },
      });
      const started = Date.now();
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 130 });
      const answers = shopify.requests.map((r) => r.answered);
      // The scripted THROTTLED and 429, then only successes: the client waited for the bucket.
      expect(answers.filter((a) => a === "THROTTLED")).toHaveLength(1);
      expect(answers.filter((a) => a === 429)).toHaveLength(1);
      expect(answers.slice(-3)).toEqual([200, 200, 200]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(2500);
      expect(await storeOrders(app.deps, account.storeId)).toHaveLength(130);
    });

    it("a refused token breaks the connection, visibly, and it is not called again until resumed", async () => {
      shopify.orders.push(shopifyOrder(`r-${n}@acme.com`, ago(DAY)));
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
      });
      shopify.reply({ status: 401, body: '{"errors":"[API] Invalid API key or access token"}' });
      const run = await runSync(app.deps, id);
      expect(run.kind).toBe("broken");
      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view?.state).toBe("broken");
      expect(view?.lastError).toContain("401");
      const calls = shopify.requests.length;
      expect(await runSync(app.deps, id)).toEqual({ kind: "idle" });
      expect(shopify.requests.length).toBe(calls);
    });

    it("two runs of one connection at once leave each order once and the count right", async () => {
      for (let i = 0; i < 120; i++)
        shopify.orders.push(shopifyOrder(`c-${n}-${i}@acme.com`, ago(DAY - i * 10)));
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
      });
      // As if a lease had expired under a slow run: both read the same cursor.
      const runs = await Promise.all([runSync(app.deps, id), runSync(app.deps, id)]);
      const stored = runs.reduce((sum, r) => sum + ("newOrders" in r ? r.newOrders : 0), 0);
      expect(stored).toBe(120);
      expect(await storeOrders(app.deps, account.storeId)).toHaveLength(120);
      expect((await connectionRow(app.deps, id)).orders_synced).toBe(120);
    });

    it("a worker starting gives every connection its sync job back", async () => {
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
      });
      const key = storeSyncJobKey(id);
      await app.deps.db.kysely.deleteFrom("jobs").where("job_key", "=", key).execute();
      await createStoreSyncTask().onWorkerStart?.(app.deps);
      const job = await app.deps.db.kysely
        .selectFrom("jobs")
        .select(["task", "payload"])
        .where("job_key", "=", key)
        .executeTakeFirst();
      expect(job).toEqual({ task: "store-sync", payload: JSON.stringify({ connectionId: id }) });
    });

    it("connect refuses a wrong token with a clear message and saves nothing", async () => {
      await expect(
        connect(app.deps, {
          accountId: account.accountId,
          shop: shopify.shop,
          credentials: { platform: "shopify", token: "shpat_wrong" },
        }),
      ).rejects.toThrow(
        /Shopify did not accept the connection: the store refused the credentials \(401/,
      );
      expect(await listConnections(app.deps.db.kysely, account.accountId)).toEqual([]);
    });

    it("a run that dies mid-page stores nothing of that page; the next run leaves no gap and no duplicate", async () => {
      for (let i = 0; i < 140; i++)
        shopify.orders.push(shopifyOrder(`k-${n}-${i}@acme.com`, ago(DAY - i * 10)));
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
      });
      let seen = 0;
      const crash = () => {
        seen += 1;
        if (seen === 50 + 20) throw new Error("killed in the middle of page 2");
      };
      await expect(runSync(app.deps, id, crash)).rejects.toThrow("killed");
      expect(await storeOrders(app.deps, account.storeId)).toHaveLength(50);
      expect((await connectionRow(app.deps, id)).orders_synced).toBe(50);
      expect(await runSync(app.deps, id)).toEqual({ kind: "synced", newOrders: 90 });
      const orders = await storeOrders(app.deps, account.storeId);
      expect(orders).toHaveLength(140);
      expect(new Set(orders.map((o) => o.external_order_id)).size).toBe(140);
      const charges = await app.deps.db.kysely
        .selectFrom("usage_charges")
        .select("id")
        .where("store_id", "=", account.storeId)
        .execute();
      expect(charges).toHaveLength(140);
    });
  });
}
