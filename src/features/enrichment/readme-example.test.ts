/**
 * The README's first example, as a newcomer runs it on a fresh install with no provider key:
 * the Atherton order's ZIP code counts, from the Census table Velvet ships and loads by itself,
 * and the store's first order is ranked against typical online orders, so Jane is a VIP.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { getCustomerReport } from "../customers/get-customer-report.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`the README's Atherton example (${engine.name})`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine, { worker: true });
    });
    afterAll(() => app?.close());

    it("makes the first big order from an affluent ZIP a VIP with no provider configured", async () => {
      const account = await app.createAccount();
      const res = await app.submit(account.apiKey, {
        email: "jane@acme.com",
        firstName: "Jane",
        lastName: "Doe",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: "1001", number: "#1001", total: "2950.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
      const report = () =>
        getCustomerReport(app.deps.db.kysely, account.accountId, { email: "jane@acme.com" });
      await waitFor(
        "the enrichment",
        async () => (await report())?.enrichment.status === "enriched",
      );
      const signals = (await report())?.enrichment.signals as Array<Record<string, unknown>>;
      expect(signals).toContainEqual({
        source: "offline",
        signal: "area_median_income_usd",
        value: 250001,
        points: 25,
      });
      const points = Object.fromEntries(signals.map((s) => [s.signal, s.points]));
      expect(points).toMatchObject({
        order_value: 30,
        order_vs_store_percentile: 15,
        email_domain: 5,
        area_median_income_usd: 25,
      });
      expect((await report())?.enrichment).toMatchObject({ score: 75, vip: true });
    });
  });
}
