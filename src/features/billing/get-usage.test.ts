import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { newId } from "../../lib/ids.js";
import { getUsage, isMonth, monthOf, monthRange } from "./get-usage.js";

describe("months", () => {
  it("accepts YYYY-MM only and spans the UTC calendar month", () => {
    expect(isMonth("2025-03")).toBe(true);
    for (const bad of ["2025-3", "2025-13", "2025-00", "25-03", "2025-03-01", ""]) {
      expect(isMonth(bad), bad).toBe(false);
    }
    expect(monthRange("2025-12")).toEqual({
      from: Date.UTC(2025, 11, 1),
      to: Date.UTC(2026, 0, 1),
    });
    expect(monthOf(Date.UTC(2025, 1, 28, 23, 59, 59, 999))).toBe("2025-02");
    expect(() => monthRange("2025-13")).toThrow(RangeError);
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`getUsage on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(() => app?.close());

    /** Writes charge rows directly, each for its own customer, as submitOrder would. */
    async function charge(accountId: string, storeId: string, price: string, at: number) {
      const customerId = newId(at);
      await app.deps.db.kysely
        .insertInto("customers")
        .values({
          id: customerId,
          store_id: storeId,
          email: `${customerId}@example.com`,
          email_normalized: `${customerId}@example.com`,
          first_name: "A",
          last_name: "B",
          phone: null,
          address_city: null,
          address_state: null,
          address_zipcode: null,
          address_country: null,
          enrichment_status: "pending",
          created_at: at,
          updated_at: at,
        })
        .execute();
      await app.deps.db.kysely
        .insertInto("usage_charges")
        .values({
          id: newId(at),
          account_id: accountId,
          store_id: storeId,
          customer_id: customerId,
          unit_price_usd: price,
          created_at: at,
        })
        .execute();
    }

    it("sums the recorded prices exactly within the month's bounds, for one account", async () => {
      const mine = await app.createAccount();
      const other = await app.createAccount();
      const march = monthRange("2025-03");
      await charge(mine.accountId, mine.storeId, "0.05", march.from);
      await charge(mine.accountId, mine.storeId, "0.05", march.to - 1);
      await charge(mine.accountId, mine.storeId, "0.03", march.from + 1000);
      await charge(mine.accountId, mine.storeId, "0.05", march.from - 1);
      await charge(mine.accountId, mine.storeId, "0.05", march.to);
      await charge(other.accountId, other.storeId, "0.05", march.from + 1000);

      // Mixed prices: the current one is shown, the amount is the exact sum of recorded ones.
      expect(await getUsage(app.deps.db.kysely, mine.accountId, "2025-03", "0.07")).toEqual({
        month: "2025-03",
        enrichments: 3,
        unitPriceUsd: "0.07",
        amountUsd: "0.13",
      });
      // One price in the month: that price is shown, whatever the current one is.
      expect(await getUsage(app.deps.db.kysely, mine.accountId, "2025-04", "0.07")).toEqual({
        month: "2025-04",
        enrichments: 1,
        unitPriceUsd: "0.05",
        amountUsd: "0.05",
      });
      expect(await getUsage(app.deps.db.kysely, other.accountId, "2025-03", "0.05")).toMatchObject({
        enrichments: 1,
        amountUsd: "0.05",
      });
    });

    it("adds many charges without float drift", async () => {
      const account = await app.createAccount();
      const at = Date.UTC(2025, 5, 10);
      for (let i = 0; i < 30; i++) await charge(account.accountId, account.storeId, "0.1", at + i);
      expect(await getUsage(app.deps.db.kysely, account.accountId, "2025-06", "0.1")).toEqual({
        month: "2025-06",
        enrichments: 30,
        unitPriceUsd: "0.1",
        amountUsd: "3.00",
      });
    });
  });
}
