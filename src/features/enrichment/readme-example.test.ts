/**
 * The README's first example, as a newcomer runs it on a fresh install with no provider key:
 * the Atherton order's ZIP code counts, from the Census table Velvet ships and loads by itself.
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

    it("scores the ZIP code's Census median income with no provider configured", async () => {
      const account = await app.createAccount();
      const res = await app.submit(account.apiKey, {
        email: "jane@acme.com",
        firstName: "Jane",
        lastName: "Doe",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: "1001", number: "#1001", total: "950.00", currency: "USD" },
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
    });
  });
}
