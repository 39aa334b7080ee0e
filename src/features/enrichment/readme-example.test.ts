/**
 * The README's first example, as a newcomer runs it on a fresh install with no provider key:
 * the Atherton order's ZIP code counts, from the Census table Velvet ships and loads by itself,
 * and the store's first order is ranked against typical online orders, so Jane is a VIP. The
 * dashboard's own first example (the Overview's "Send your first order", API Access's "Send an
 * order") is sent beside it, in either order: two customers, two stored orders, two VIPs.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { getCustomerReport } from "../customers/get-customer-report.js";
import { EXAMPLE_BODY, EXAMPLE_OUTCOME } from "../dashboard/api-access/curl-example.js";

/** The JSON the README's "Send an order" step posts, read from the README itself. */
function readmeBody(): Record<string, unknown> {
  const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8");
  const data = /curl -s [^\n]*\/api\/v1\/orders[\s\S]*?-d '([^']*)'/.exec(readme)?.[1];
  if (data === undefined) throw new Error("the README's curl example is missing");
  return JSON.parse(data) as Record<string, unknown>;
}

const README = readmeBody();
/** Both examples' points on the offline signals alone: 30 + 15 + 5 + 25 = 75. */
const OFFLINE_VIP_POINTS = {
  order_value: 30,
  order_vs_store_percentile: 15,
  email_domain: 5,
  area_median_income_usd: 25,
};
const EXAMPLES = { readme: README, dashboard: EXAMPLE_BODY } as const;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `the README's and the dashboard's examples (${engine.name})`,
    () => {
      let app: TestApp;
      beforeAll(async () => {
        app = await startTestApp(engine, { worker: true });
      });
      afterAll(() => app?.close());

      it("the README's order is Jane's, $2,950 from Atherton", () => {
        expect(README).toMatchObject({
          email: "jane@acme.com",
          address: { zipcode: "94027" },
          order: { id: "1001", total: "2950.00", currency: "USD" },
        });
      });

      for (const sequence of [
        ["readme", "dashboard"],
        ["dashboard", "readme"],
      ] as const) {
        it(`${sequence.join(" then ")}: two stored orders, and both customers VIPs with their reasons`, async () => {
          const account = await app.createAccount();
          for (const which of sequence) {
            const res = await app.submit(account.apiKey, EXAMPLES[which]);
            expect(res.status, which).toBe(200);
          }
          const report = (email: string) =>
            getCustomerReport(app.deps.db.kysely, account.accountId, { email });
          for (const { email } of [README, EXAMPLE_BODY] as Array<{ email: string }>) {
            await waitFor(
              `the enrichment of ${email}`,
              async () => (await report(email))?.enrichment.status === "enriched",
            );
          }
          const orders = await app.deps.db.kysely
            .selectFrom("orders")
            .innerJoin("stores", "stores.id", "orders.store_id")
            .select(["orders.external_order_id", "orders.total"])
            .where("stores.account_id", "=", account.accountId)
            .orderBy("orders.external_order_id")
            .execute();
          expect(orders.map((o) => [o.external_order_id, o.total])).toEqual([
            ["1001", "2950.00"],
            ["1002", "3100.00"],
          ]);

          const jane = await report(README.email as string);
          const janeSignals = jane?.enrichment.signals as Array<Record<string, unknown>>;
          expect(janeSignals).toContainEqual({
            source: "offline",
            signal: "area_median_income_usd",
            value: 250001,
            points: 25,
          });
          expect(Object.fromEntries(janeSignals.map((s) => [s.signal, s.points]))).toMatchObject(
            OFFLINE_VIP_POINTS,
          );
          expect(jane?.enrichment).toMatchObject({ score: 75, vip: true });

          // The dashboard's example says what it shows (EXAMPLE_OUTCOME): 30 + 15 + 25 + 5.
          const ava = await report(EXAMPLE_BODY.email);
          const avaSignals = ava?.enrichment.signals as Array<Record<string, unknown>>;
          expect(Object.fromEntries(avaSignals.map((s) => [s.signal, s.points]))).toMatchObject(
            OFFLINE_VIP_POINTS,
          );
          expect(ava?.enrichment).toMatchObject({ score: 75, vip: true });
          expect(EXAMPLE_OUTCOME).toContain("scores 75, a VIP");
        });
      }
    },
  );
}
