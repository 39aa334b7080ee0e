/**
 * A database fault in the middle of the order transaction: the `orders` insert fails (a
 * trigger), after the customer, its job and its charge were inserted. The answer is the
 * contract's exact 500, nothing stays written, and the same request succeeds once the fault
 * is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  FAILED,
  injectOrderInsertFault,
  removeOrderInsertFault,
  storeRows,
  UUID_RE,
  uniqueOrderId,
  validBody,
} from "../../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `a fault inside the order transaction on ${engine.name}`,
    () => {
      let app: TestApp;
      let account: TestAccount;
      beforeAll(async () => {
        app = await startTestApp(engine);
        account = await app.createAccount();
      });
      afterAll(() => app?.close());

      it("answers 500 with nothing written, and the retry succeeds", async () => {
        const body = validBody({ order: { id: uniqueOrderId(), total: "42.00" } });
        await injectOrderInsertFault(app.deps.db);
        try {
          const res = await app.submit(account.apiKey, body);
          expect(res.status).toBe(500);
          const text = await res.text();
          expect(JSON.parse(text)).toEqual(FAILED);
          expect(text).not.toMatch(/injected|trigger|at |\.ts|stack/i);
          expect(await storeRows(app.deps.db, account.storeId)).toEqual({
            customers: 0,
            orders: 0,
            charges: 0,
            jobs: 0,
          });
          const jobs = await app.deps.db.kysely.selectFrom("jobs").select("id").execute();
          expect(jobs).toEqual([]);
        } finally {
          await removeOrderInsertFault(app.deps.db);
        }

        const retry = await app.submit(account.apiKey, body);
        expect(retry.status).toBe(200);
        const answer = (await retry.json()) as Record<string, unknown>;
        expect(answer).toMatchObject({ success: true, enrichmentStatus: "queued" });
        expect(answer.orderId).toMatch(UUID_RE);
        expect(await storeRows(app.deps.db, account.storeId)).toEqual({
          customers: 1,
          orders: 1,
          charges: 1,
          jobs: 1,
        });
      });

      it("answers 500 for an existing customer too, leaving it and its state untouched", async () => {
        const email = `fault-${Date.now()}@example.com`;
        const first = await app.submit(account.apiKey, validBody({ email }));
        const { customerId } = (await first.json()) as { customerId: string };
        await app.deps.db.kysely
          .updateTable("customers")
          .set({ enrichment_status: "failed" })
          .where("id", "=", customerId)
          .execute();
        await injectOrderInsertFault(app.deps.db);
        try {
          const res = await app.submit(
            account.apiKey,
            validBody({ email, order: { id: uniqueOrderId() } }),
          );
          expect(res.status).toBe(500);
          expect(await res.json()).toEqual(FAILED);
        } finally {
          await removeOrderInsertFault(app.deps.db);
        }
        // The requeue (failed → pending) was rolled back with the order: the retry still retries.
        const row = await app.deps.db.kysely
          .selectFrom("customers")
          .select("enrichment_status")
          .where("id", "=", customerId)
          .executeTakeFirstOrThrow();
        expect(row.enrichment_status).toBe("failed");
        const retry = await app.submit(
          account.apiKey,
          validBody({ email, order: { id: uniqueOrderId() } }),
        );
        expect(await retry.json()).toMatchObject({ customerId, enrichmentStatus: "retry" });
      });
    },
  );
}
