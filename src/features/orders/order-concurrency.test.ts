/**
 * Racing submissions: 50 identical requests at once (a new customer with an order id) give one
 * customer, one order, one charge and one job, and every request the same answer; the same
 * when the requests are spread over two app instances sharing one PostgreSQL database.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  storeRows,
  submitJson,
  UUID_RE,
  uniqueOrderId,
  validBody,
} from "../../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";

const PARALLEL = 50;

async function race(apps: TestApp[], apiKey: string, body: unknown) {
  const results = await Promise.all(
    Array.from({ length: PARALLEL }, (_, i) =>
      submitJson(apps[i % apps.length] as TestApp, apiKey, body),
    ),
  );
  for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(200);
  const first = results[0]?.body ?? {};
  expect(first.customerId).toMatch(UUID_RE);
  expect(first.orderId).toMatch(UUID_RE);
  for (const r of results) {
    expect(r.body).toEqual({
      success: true,
      customerId: first.customerId,
      orderId: first.orderId,
      enrichmentStatus: "queued",
    });
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`racing submissions on ${engine.name}`, () => {
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
    });
    afterAll(() => app?.close());

    it(`${PARALLEL} identical submissions make one customer, order, charge and job`, async () => {
      await race(
        [app],
        account.apiKey,
        validBody({ order: { id: uniqueOrderId(), total: "10.00" } }),
      );
      expect(await storeRows(app.deps.db, account.storeId)).toEqual({
        customers: 1,
        orders: 1,
        charges: 1,
        jobs: 1,
      });
    });

    it("different customers racing for one order.id: one wins, the others get 409 and leave nothing", async () => {
      const store = await app.createAccount();
      const id = uniqueOrderId();
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          submitJson(app, store.apiKey, validBody({ order: { id } })),
        ),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, ...Array(9).fill(409)]);
      expect(await storeRows(app.deps.db, store.storeId)).toEqual({
        customers: 1,
        orders: 1,
        charges: 1,
        jobs: 1,
      });
    });

    it("racing repeats for a failed customer: exactly one retry, the rest queued, no charge", async () => {
      const store = await app.createAccount();
      const body = validBody();
      const first = await submitJson(app, store.apiKey, body);
      await app.deps.db.kysely
        .updateTable("customers")
        .set({ enrichment_status: "failed" })
        .where("id", "=", first.body.customerId as string)
        .execute();
      const results = await Promise.all(
        Array.from({ length: 20 }, () => submitJson(app, store.apiKey, body)),
      );
      const answers = results.map((r) => r.body.enrichmentStatus).sort();
      expect(answers).toEqual([...Array(19).fill("queued"), "retry"]);
      expect(await storeRows(app.deps.db, store.storeId)).toEqual({
        customers: 1,
        orders: 0,
        charges: 1,
        jobs: 1,
      });
    });
  });
}

const postgres = ENGINES.find((e) => e.name === "postgres");
describe.skipIf(!postgres?.available)("racing submissions over two nodes on postgres", () => {
  it(`${PARALLEL} identical submissions spread over two app instances converge`, async () => {
    if (!postgres) return;
    const first = await startTestApp(postgres);
    const second = await startTestApp(postgres, { database: first.database });
    try {
      const account = await first.createAccount();
      const body = validBody({ order: { id: uniqueOrderId(), total: "10.00" } });
      await race([first, second], account.apiKey, body);
      expect(await storeRows(second.deps.db, account.storeId)).toEqual({
        customers: 1,
        orders: 1,
        charges: 1,
        jobs: 1,
      });
    } finally {
      await second.close();
      await first.close();
    }
  });
});
