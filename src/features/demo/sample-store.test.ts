/**
 * Sample data apart from real data, on both engines, through the real app and its worker:
 * - the same real order scores the same (score and every signal, the store comparison's
 *   percentile included) in an account with sample data as in one without, with the same real
 *   store history otherwise, the store's window read afresh after the sample arrived;
 * - a real order for an address the sample history uses makes a real customer in the real
 *   store, billed, that removing the sample data leaves in place with its order;
 * - a real customer whose address the sample history uses later keeps exactly its own orders;
 * - the API refuses a key of the sample store, were one ever made;
 * - removing the sample data leaves every real customer and order, and empties the sample store.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { createApiKey } from "../api-keys/create-api-key.js";
import { cliActor } from "../audit/audit-actor.js";
import { REBUILD_MS } from "../enrichment/offline/store-order-window.js";
import { addSampleData, removeSampleData } from "./sample-data.js";
import { sampleHistory } from "./sample-history.js";
import { findSampleStore } from "./sample-store.js";

const actor = cliActor("tester");
/** Twenty real orders below $300: enough for the store's own ranking (MIN_STORE_ORDERS). */
const HISTORY = Array.from({ length: 20 }, (_, i) => ({
  email: `buyer${i}@acme.com`,
  total: (20 + i * 9).toFixed(2),
}));

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `sample data in a store of its own (${engine.name})`,
    { timeout: 120_000 },
    () => {
      let app: TestApp;
      // Real time, moved ahead by hand: the store comparison's windows are read afresh after
      // REBUILD_MS, and a window read before the sample history arrived would not hold it.
      let ahead = 0;
      beforeAll(async () => {
        app = await startTestApp(engine, {
          worker: true,
          clock: { now: () => Date.now() + ahead },
        });
      });
      afterAll(() => app?.close());

      const db = () => app.deps.db.kysely;
      const submit = async (account: TestAccount, email: string, id: string, total: string) => {
        const res = await app.submit(account.apiKey, {
          email,
          firstName: "Real",
          lastName: "Buyer",
          order: { id, total },
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { customerId: string; orderId: string };
      };
      const enriched = (customerId: string) =>
        waitFor(
          "the customer enriched",
          async () =>
            (
              await db()
                .selectFrom("customers")
                .select("enrichment_status")
                .where("id", "=", customerId)
                .executeTakeFirstOrThrow()
            ).enrichment_status === "enriched",
          30_000,
        );
      const everyoneEnriched = () =>
        waitFor(
          "every customer enriched",
          async () =>
            (
              await db()
                .selectFrom("customers")
                .select("id")
                .where("enrichment_status", "!=", "enriched")
                .execute()
            ).length === 0,
          60_000,
        );
      const scoreOf = (customerId: string) =>
        db()
          .selectFrom("enrichments")
          .select(["score", "vip", "signals"])
          .where("customer_id", "=", customerId)
          .executeTakeFirstOrThrow();
      const storeRows = async (accountId: string) => {
        const rows = await db()
          .selectFrom("orders")
          .innerJoin("customers", "customers.id", "orders.customer_id")
          .innerJoin("stores", "stores.id", "orders.store_id")
          .select(["orders.id as orderId", "customers.id as customerId", "customers.sample"])
          .where("stores.account_id", "=", accountId)
          .execute();
        return rows;
      };

      it("scores a real order the same with and without sample data in the account", async () => {
        const [withSample, without] = [await app.createAccount(), await app.createAccount()];
        for (const account of [withSample, without]) {
          for (const [i, h] of HISTORY.entries()) await submit(account, h.email, `h${i}`, h.total);
        }
        await everyoneEnriched();
        const added = await addSampleData(app.deps, { accountId: withSample.accountId, actor });
        expect(added.orders).toBeGreaterThan(60);
        await everyoneEnriched();
        ahead += REBUILD_MS;

        const a = await submit(withSample, "jane@acme.com", "1001", "300.00");
        const b = await submit(without, "jane@acme.com", "1001", "300.00");
        await Promise.all([enriched(a.customerId), enriched(b.customerId)]);
        const [scoredA, scoredB] = [await scoreOf(a.customerId), await scoreOf(b.customerId)];
        expect(scoredA.score).toBe(scoredB.score);
        expect(JSON.parse(scoredA.signals)).toEqual(JSON.parse(scoredB.signals));
        // Ranked against the 21 real orders alone: the order is above all 20 others.
        const rank = (
          JSON.parse(scoredA.signals) as Array<{ signal: string; value: unknown }>
        ).find((s) => s.signal === "order_vs_store_percentile");
        expect(rank?.value).toBe(97.6);
      });

      it("makes a real order for a sample address a real, billed customer that removal keeps", async () => {
        const account = await app.createAccount();
        await addSampleData(app.deps, { accountId: account.accountId, actor });
        const sampleEmail = sampleHistory(account.accountId, app.deps.clock.now())[0]?.email ?? "";
        const sampleCustomer = await db()
          .selectFrom("customers")
          .select(["id", "store_id"])
          .where("email_normalized", "=", sampleEmail)
          .executeTakeFirstOrThrow();

        const real = await submit(account, sampleEmail, "live-1", "120.00");
        expect(real.customerId).not.toBe(sampleCustomer.id);
        const row = await db()
          .selectFrom("customers")
          .select(["store_id", "sample"])
          .where("id", "=", real.customerId)
          .executeTakeFirstOrThrow();
        expect(row).toEqual({ store_id: account.storeId, sample: 0 });
        expect(sampleCustomer.store_id).not.toBe(account.storeId);
        const charges = await db()
          .selectFrom("usage_charges")
          .select("customer_id")
          .where("account_id", "=", account.accountId)
          .execute();
        expect(charges).toEqual([{ customer_id: real.customerId }]);
        // Enriched as a real customer (its providers and events are a real one's).
        await enriched(real.customerId);

        await everyoneEnriched();
        const removed = await removeSampleData(app.deps, { accountId: account.accountId, actor });
        expect(removed.customers).toBe(60);
        expect(await storeRows(account.accountId)).toEqual([
          { orderId: real.orderId, customerId: real.customerId, sample: 0 },
        ]);
        expect(
          await db()
            .selectFrom("usage_charges")
            .select("customer_id")
            .where("account_id", "=", account.accountId)
            .execute(),
        ).toEqual([{ customer_id: real.customerId }]);
      });

      it("keeps a real customer's own orders, only them, when the sample uses its address", async () => {
        const account = await app.createAccount();
        const sampleEmail = sampleHistory(account.accountId, app.deps.clock.now())[0]?.email ?? "";
        const first = await submit(account, sampleEmail, "live-1", "40.00");
        const other = await submit(account, "someone@acme.com", "live-2", "55.00");
        await addSampleData(app.deps, { accountId: account.accountId, actor });
        const ordersOf = (customerId: string) =>
          db().selectFrom("orders").select("id").where("customer_id", "=", customerId).execute();
        expect(await ordersOf(first.customerId)).toEqual([{ id: first.orderId }]);
        const keys = await db()
          .selectFrom("api_keys")
          .innerJoin("stores", "stores.id", "api_keys.store_id")
          .select("stores.sample")
          .where("stores.account_id", "=", account.accountId)
          .execute();
        expect(keys).toEqual([{ sample: 0 }]);

        // Were a key ever made for the sample store, the API would refuse it: nothing real
        // can be written there.
        const sampleStore = await findSampleStore(db(), account.accountId);
        const stray = await createApiKey(db(), sampleStore?.storeId ?? "", app.deps.clock.now());
        const refused = await app.submit(stray.apiKey, {
          email: "x@acme.com",
          firstName: "X",
          lastName: "Y",
          order: { id: "stray-1", total: "10.00" },
        });
        expect(refused.status).toBe(401);

        await everyoneEnriched();
        await removeSampleData(app.deps, { accountId: account.accountId, actor });
        const left = await storeRows(account.accountId);
        expect(left.map((r) => r.orderId).sort()).toEqual([first.orderId, other.orderId].sort());
        expect(left.every((r) => r.sample === 0)).toBe(true);
        const customers = await db()
          .selectFrom("customers")
          .innerJoin("stores", "stores.id", "customers.store_id")
          .select("customers.id")
          .where("stores.account_id", "=", account.accountId)
          .execute();
        expect(customers.map((c) => c.id).sort()).toEqual(
          [first.customerId, other.customerId].sort(),
        );
      });
    },
  );
}
