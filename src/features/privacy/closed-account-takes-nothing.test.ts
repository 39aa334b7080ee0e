/**
 * A closed account receives no new data and spends nothing, on both engines, against the fake
 * Shopify and the fake providers:
 * - a store connection whose sync is queued: closing deletes the connection (credentials
 *   included) and its job; a worker then runs every task and the shop is not called again, no
 *   customer, enrichment job, charge or lookup appears;
 * - a sync whose job a worker held and whose page was fetched before the close stores nothing;
 * - a store whose connecting call was out when the account closed is not saved;
 * - an enrichment queued before the close asks no provider; a file import is refused.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { shopifyOrder, startFakeShopify } from "../../../test/fakes/shopify-admin.js";
import { ENGINES } from "../../../test/support/databases.js";
import { connect, STORE_SYNC_ENV, testPlatformHttp } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { drainQueue } from "../../../test/support/test-deps.js";
import type { JobContext } from "../../jobs/task.js";
import { createWorker } from "../../jobs/worker.js";
import type { OutboundHttp } from "../../lib/outbound/outbound-http.js";
import { allTasks } from "../../tasks.js";
import { cliActor } from "../audit/audit-actor.js";
import { createEnrichCustomerTask } from "../enrichment/enrich-customer.js";
import { importOrders } from "../order-import/import-orders.js";
import { ImportError } from "../order-import/read-order-file.js";
import { connectStore } from "../store-sync/connect-store.js";
import type { PlatformHttp } from "../store-sync/platform-http.js";
import { createStoreSyncTask, storeSyncJobKey } from "../store-sync/sync-task.js";
import { closeAccount } from "./close-account.js";

const DAY = 24 * 60 * 60 * 1000;

const context = (): JobContext => ({
  jobId: "test",
  attempt: 1,
  maxAttempts: 3,
  requestId: null,
  signal: new AbortController().signal,
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a closed account takes nothing (${engine.name})`, () => {
    let fakes: FakeProviders;
    let app: TestApp;

    beforeAll(async () => {
      fakes = await startFakeProviders();
      app = await startTestApp(engine, {
        env: { ...fakes.env, ...STORE_SYNC_ENV, GRAVATAR_RATE_LIMIT_PER_MIN: "6000" },
      });
    });
    afterAll(async () => {
      await app?.close();
      await fakes?.close();
    });

    const db = () => app.deps.db.kysely;
    const close = (account: TestAccount) =>
      closeAccount(app.deps, { accountId: account.accountId, actor: cliActor("test") });
    const syncJob = (connectionId: string) =>
      db()
        .selectFrom("jobs")
        .select(["id"])
        .where("job_key", "=", storeSyncJobKey(connectionId))
        .executeTakeFirst();
    /** What the account got since `since`: customers, orders, enrichment jobs, charges, lookups. */
    const received = async (account: TestAccount, since: number) => {
      const customers = await db()
        .selectFrom("customers")
        .select("id")
        .where("store_id", "=", account.storeId)
        .execute();
      const orders = await db()
        .selectFrom("orders")
        .select("id")
        .where("store_id", "=", account.storeId)
        .execute();
      const enrichments = await db()
        .selectFrom("jobs")
        .select("payload")
        .where("task", "=", "enrich-customer")
        .execute();
      const charges = await db()
        .selectFrom("usage_charges")
        .select("id")
        .where("account_id", "=", account.accountId)
        .where("created_at", ">=", since)
        .execute();
      const spend = await db()
        .selectFrom("provider_spend")
        .select("lookups")
        .where("account_id", "=", account.accountId)
        .execute();
      return {
        customers: customers.length,
        orders: orders.length,
        enrichmentJobs: enrichments.filter((j) => customers.some((c) => j.payload.includes(c.id)))
          .length,
        charges: charges.length,
        lookups: spend.reduce((n, s) => n + Number(s.lookups), 0),
      };
    };
    const nothing = { customers: 0, orders: 0, enrichmentJobs: 0, charges: 0, lookups: 0 };

    it("a connection's queued sync never runs: its connection, credentials and job go with the close", async () => {
      const shop = await startFakeShopify();
      onTestFinished(() => shop.close());
      const account = await app.createAccount({ name: "Closing Store" });
      shop.orders.push(
        shopifyOrder(`old-${engine.name}@navy-systems.com`, new Date(Date.now() - 10 * DAY)),
      );
      const connectionId = await connect(app.deps, {
        accountId: account.accountId,
        shop: shop.shop,
        credentials: { platform: "shopify", token: shop.token },
      });
      expect(await syncJob(connectionId)).toBeDefined();
      shop.orders.push(shopifyOrder(`new-${engine.name}@navy-systems.com`, new Date()));
      const calls = shop.requests.length;
      const closedAt = app.deps.clock.now();

      expect(await close(account)).toMatchObject({ kind: "closed", storesDisconnected: 1 });
      expect(await syncJob(connectionId)).toBeUndefined();
      const rows = await db()
        .selectFrom("store_connections")
        .select("id")
        .where("account_id", "=", account.accountId)
        .execute();
      expect(rows).toEqual([]);

      // A worker with every task `velvet serve` runs (the erasure included), until nothing is due.
      const worker = createWorker(app.deps, allTasks(app.deps));
      worker.start();
      try {
        await drainQueue(app.deps, 20_000);
      } finally {
        await worker.stop();
      }
      expect(shop.requests.length).toBe(calls);
      expect(await received(account, closedAt)).toEqual(nothing);
      expect(fakes.all().reduce((n, fake) => n + fake.requestCount(), 0)).toBe(0);
    });

    it("a sync whose page was fetched before the close stores none of it", async () => {
      const shop = await startFakeShopify();
      onTestFinished(() => shop.close());
      const account = await app.createAccount({ name: "Busy Store" });
      const connectionId = await connect(app.deps, {
        accountId: account.accountId,
        shop: shop.shop,
        credentials: { platform: "shopify", token: shop.token },
      });
      shop.orders.push(shopifyOrder(`late-${engine.name}@navy-systems.com`, new Date()));
      // A worker holds the job, as when it claimed it before the close.
      await db()
        .updateTable("jobs")
        .set({ locked_by: "another-worker", locked_until: app.deps.clock.now() + 60_000 })
        .where("job_key", "=", storeSyncJobKey(connectionId))
        .execute();
      const closedAt = app.deps.clock.now();
      // The account is closed while Shopify answers the orders query.
      let closed = false;
      const http: OutboundHttp = {
        send: async (req, signal) => {
          const res = await app.deps.http.send(req, signal);
          if (!closed && (req.body ?? "").includes("VelvetOrders")) {
            closed = true;
            await close(account);
          }
          return res;
        },
        close: async () => {},
      };
      const outcome = await createStoreSyncTask().handle(
        { ...app.deps, http },
        { connectionId },
        context(),
      );
      expect(closed).toBe(true);
      expect(outcome).toEqual({ kind: "done" });
      expect(await received(account, closedAt)).toEqual(nothing);
      // The held job was left to its worker, which ends it on this outcome.
      expect(await syncJob(connectionId)).toBeDefined();
    });

    it("a store connected while the account closes is not saved", async () => {
      const shop = await startFakeShopify();
      onTestFinished(() => shop.close());
      const account = await app.createAccount({ name: "Racing Store" });
      // The account is closed while Shopify answers the connection's verifying call.
      const base = testPlatformHttp();
      onTestFinished(() => base.close());
      let closed = false;
      const http: PlatformHttp = {
        call: async (url, init, signal) => {
          const res = await base.call(url, init, signal);
          if (!closed && (init.body ?? "").includes("VelvetOrders")) {
            closed = true;
            await close(account);
          }
          return res;
        },
        close: async () => {},
      };
      const connecting = connectStore(app.deps, http, {
        accountId: account.accountId,
        shop: shop.shop,
        credentials: { platform: "shopify", token: shop.token },
        actor: cliActor("test"),
      });
      await expect(connecting).rejects.toThrow(/No account/);
      expect(closed).toBe(true);
      const rows = await db()
        .selectFrom("store_connections")
        .select("id")
        .where("account_id", "=", account.accountId)
        .execute();
      expect(rows).toEqual([]);
    });

    it("an enrichment queued before the close asks no provider; a file import is refused", async () => {
      const account = await app.createAccount({ name: "Queued Store" });
      const res = await app.submit(account.apiKey, {
        email: `queued-${engine.name}@navy-systems.com`,
        firstName: "Ada",
        lastName: "Lovelace",
      });
      expect(res.status).toBe(200);
      const { customerId } = (await res.json()) as { customerId: string };
      await close(account);
      for (const fake of fakes.all()) fake.reset();

      const outcome = await createEnrichCustomerTask().handle(
        app.deps,
        { customerId, alerts: true },
        context(),
      );
      expect(outcome).toEqual({ kind: "done" });
      expect(fakes.all().reduce((n, fake) => n + fake.requestCount(), 0)).toBe(0);
      const spend = await db()
        .selectFrom("provider_spend")
        .select("lookups")
        .where("account_id", "=", account.accountId)
        .execute();
      expect(spend).toEqual([]);

      const dir = mkdtempSync(join(tmpdir(), "velvet-closed-"));
      const file = join(dir, "orders.csv");
      writeFileSync(
        file,
        "email,first_name,last_name,order_id,total,currency,ordered_at\nlate@example.com,Late,Comer,p-1,12.00,USD,2024-01-01\n",
      );
      const imported = importOrders(app.deps, {
        accountId: account.accountId,
        file,
        apply: true,
        alerts: false,
      });
      await expect(imported).rejects.toThrow(ImportError);
      await expect(imported).rejects.toThrow(/is closed/);
      const customers = await db()
        .selectFrom("customers")
        .select("email")
        .where("store_id", "=", account.storeId)
        .execute();
      expect(customers.map((c) => c.email)).not.toContain("late@example.com");
    });
  });
}
