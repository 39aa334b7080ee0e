/**
 * A customer's orders with their platform status, on both engines: the customer page lists
 * every order, a cancelled or refunded one marked as not counted and a partial refund shown as
 * it is, and the customer's order count (page and list) counts purchases only. A customer
 * whose orders carry no status (the API) shows no status column.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `order statuses on the customer pages (${engine.name})`,
    () => {
      let app: TestApp;
      let browser: HttpBrowser;
      let apiKey: string;
      let shopper: string;
      let plain: string;

      async function submit(email: string, order: object, name = ["Sam", "Shopper"]) {
        const [firstName, lastName] = name;
        const res = await app.submit(apiKey, { email, firstName, lastName, order });
        expect(res.status).toBe(200);
        return ((await res.json()) as { customerId: string }).customerId;
      }
      /** As store sync leaves an order whose status the platform changed (write-pulled-orders.ts). */
      async function setStatus(externalId: string, status: string, counts: number) {
        await app.deps.db.kysely
          .updateTable("orders")
          .set({ status, counts, status_at: Date.now() })
          .where("external_order_id", "=", externalId)
          .where("customer_id", "=", shopper)
          .execute();
      }

      beforeAll(async () => {
        app = await startTestApp(engine);
        ({ browser, apiKey } = await signInNewAccount(app));
        shopper = await submit("sam@shopper.example", {
          id: "s-1",
          number: "2001",
          total: "50.00",
        });
        await submit("sam@shopper.example", { id: "s-2", number: "2002", total: "60.00" });
        await submit("sam@shopper.example", { id: "s-3", number: "2003", total: "70.00" });
        await submit("sam@shopper.example", { id: "s-4", number: "2004", total: "80.00" });
        await setStatus("s-1", "paid", 1);
        await setStatus("s-2", "cancelled", 0);
        await setStatus("s-3", "refunded", 0);
        await setStatus("s-4", "partially_refunded", 1);
        plain = await submit("pia@plain.example", { id: "p-1", number: "3001", total: "20.00" }, [
          "Pia",
          "Plain",
        ]);
      });
      afterAll(() => app?.close());

      /** The order table's row of one order number, tags stripped. */
      const rowText = (html: string, number: string) => {
        const row = html.match(new RegExp(`<tr><td class="primary-cell">${number}[\\s\\S]*?</tr>`));
        return (row?.[0] ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      };

      it("lists every order with its status; cancelled and refunded ones are marked not counted", async () => {
        const { res, html } = await browser.page(`/customers/${shopper}`);
        expect(res.status).toBe(200);
        expect(html).toContain('<th scope="col">Status</th>');
        expect(rowText(html, "2001")).toContain("Paid");
        expect(rowText(html, "2001")).not.toContain("not counted");
        expect(rowText(html, "2002")).toContain("Cancelled not counted as a purchase");
        expect(rowText(html, "2003")).toContain("Refunded not counted as a purchase");
        expect(rowText(html, "2004")).toContain("Partially refunded");
        expect(rowText(html, "2004")).not.toContain("not counted");
        expect(html).toContain('<span class="badge bad">Cancelled</span>');
        // Purchases: 2 of the 4 orders.
        expect(html).toMatch(
          /<dt>Orders<\/dt><dd>2 <span class="muted small">\(plus 2 not counted: cancelled, refunded or voided\)<\/span><\/dd>/,
        );
      });

      it("counts purchases only in the customer list", async () => {
        const { html } = await browser.page("/customers");
        const row = html.match(/Sam Shopper<\/a>[\s\S]*?<\/tr>/)?.[0] ?? "";
        expect(row).toMatch(/<td data-label="Orders" class="num">2<\/td>/);
      });

      it("shows no status column for orders that carry none (the API)", async () => {
        const { html } = await browser.page(`/customers/${plain}`);
        expect(html).toContain("3001");
        expect(html).not.toContain('<th scope="col">Status</th>');
        expect(html).toContain("<dt>Orders</dt><dd>1</dd>");
      });
    },
  );
}
