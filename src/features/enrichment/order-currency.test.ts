/**
 * An order in euros through the real API and worker, on a fresh install with no provider key:
 * it scores on its value converted with the ECB rates Velvet ships, and the reason names the
 * rate, its day and its publisher; an order in a currency without a reference rate says so and
 * scores nothing on the dollar bands. The API's answer is the same in every currency.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { getCustomerReport } from "../customers/get-customer-report.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`orders in other currencies (${engine.name})`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine, { worker: true });
    });
    afterAll(() => app?.close());

    async function signalsAfterEnrichment(accountId: string, email: string) {
      const report = () => getCustomerReport(app.deps.db.kysely, accountId, { email });
      await waitFor(
        "the enrichment",
        async () => (await report())?.enrichment.status === "enriched",
      );
      return (await report())?.enrichment.signals as Array<Record<string, unknown>>;
    }

    it("scores an order in EUR on its converted value, with the rate named", async () => {
      const account = await app.createAccount();
      const res = await app.submit(account.apiKey, {
        email: "marie@exemple.fr",
        firstName: "Marie",
        lastName: "Curie",
        order: { id: "2001", number: "#2001", total: "925.50", currency: "EUR" },
      });
      expect(res.status).toBe(200);
      const signals = await signalsAfterEnrichment(account.accountId, "marie@exemple.fr");
      // 925.50 × 1.1252 (USD per EUR on 2025-05-09) = 1,041.3726: the $1,000 band.
      expect(signals).toContainEqual({
        source: "offline",
        signal: "order_value",
        value: "€925.50 ≈ $1,041.37 at 1.1252 USD/EUR, ECB 2025-05-09",
        points: 25,
      });
      // The store's first order: ranked among typical online orders at its dollar value.
      expect(signals).toContainEqual({
        source: "offline",
        signal: "order_vs_store_percentile",
        value:
          "99.5 among typical online orders, as $1,041.37 (store has 1 EUR order, 20 for its own)",
        points: 15,
      });
    });

    it("says when a currency has no reference rate and scores nothing on the dollar bands", async () => {
      const account = await app.createAccount();
      const res = await app.submit(account.apiKey, {
        email: "awa@exemple.sn",
        firstName: "Awa",
        lastName: "Diop",
        order: { id: "3001", total: "650000", currency: "XOF" },
      });
      expect(res.status).toBe(200);
      const signals = await signalsAfterEnrichment(account.accountId, "awa@exemple.sn");
      expect(signals).toContainEqual({
        source: "offline",
        signal: "order_value",
        value: "650000 XOF (no reference rate for XOF)",
        points: 0,
      });
      expect(signals).toContainEqual({
        source: "offline",
        signal: "order_vs_store_percentile",
        value: "store has 1 XOF order, 20 needed",
        points: 0,
      });
    });
  });
}
