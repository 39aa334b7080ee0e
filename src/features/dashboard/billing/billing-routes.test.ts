import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../../test/browser/http-browser.js";
import { auditDetails } from "../../../../test/support/audit-details.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { addMember } from "../../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { readAccountSettings } from "../../accounts/settings/read-account-settings.js";
import { mayChange, pageSettings } from "../settings/setting-fields.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Settings → Billing on ${engine.name}`, () => {
    let t = Date.UTC(2025, 5, 15, 12);
    const clock = { now: () => t };
    let app: TestApp;
    let browser: HttpBrowser;
    let accountId: string;

    beforeAll(async () => {
      app = await startTestApp(engine, { clock, env: { ENRICHMENT_PRICE_USD: "0.05" } });
      const signed = await signInNewAccount(app);
      browser = signed.browser;
      accountId = signed.accountId;
      const other = await app.createAccount();
      const at = async (ms: number, key: string, email: string) => {
        t = ms;
        expect((await app.submit(key, { email, firstName: "F", lastName: "L" })).status).toBe(200);
      };
      await at(Date.UTC(2024, 5, 20), signed.apiKey, "old@example.com"); // 12 months before June 2025: outside
      await at(Date.UTC(2025, 4, 3, 9), signed.apiKey, "may1@example.com");
      await at(Date.UTC(2025, 4, 3, 18), signed.apiKey, "may2@example.com");
      await at(Date.UTC(2025, 5, 1, 0, 0, 1), signed.apiKey, "jun1@example.com");
      await at(Date.UTC(2025, 5, 14, 23), signed.apiKey, "jun2@example.com");
      await at(Date.UTC(2025, 5, 15, 8), signed.apiKey, "jun3@example.com");
      await at(Date.UTC(2025, 5, 15, 9), signed.apiKey, "jun1@example.com"); // repeat: no charge
      await at(Date.UTC(2025, 5, 10), other.apiKey, "other@example.com"); // another account
      // A price change mid-month: the charge keeps the price it was made at.
      await app.deps.db.kysely
        .updateTable("usage_charges")
        .set({ unit_price_usd: "0.03" })
        .where("created_at", "=", Date.UTC(2025, 5, 14, 23))
        .execute();
      t = Date.UTC(2025, 5, 15, 12);
    });
    afterAll(() => app?.close());

    it("shows this month's enrichments, unit price and exact amount", async () => {
      const { html } = await browser.page("/settings/billing");
      expect(html).toContain("Enrichments, June 2025");
      expect(html).toMatch(/<div class="value">3<\/div>/);
      expect(html).toContain("$0.13");
      expect(html).toContain("$0.03 / $0.05");
    });

    it("lists the last 12 months, newest first, and leaves older months out", async () => {
      const { html } = await browser.page("/settings/billing");
      const months = [...html.matchAll(/\?month=(\d{4}-\d{2})">/g)].map((m) => m[1]);
      expect(months).toHaveLength(12);
      expect(months[0]).toBe("2025-06");
      expect(months[11]).toBe("2024-07");
      expect(html).toMatch(
        /May 2025<\/a><\/td>\s*<td data-label="Enrichments" class="num">2<\/td>\s*<td data-label="Unit price" class="num nowrap">\$0.05<\/td>\s*<td data-label="Amount" class="num nowrap">\$0.10<\/td>/,
      );
    });

    it("charts the charge and the enrichments of each of the last 12 months, oldest first", async () => {
      const { html } = await browser.page("/settings/billing");
      const spend = [
        ...html.matchAll(/<title>(\w+ \d{4}): (\$[\d.,]+) \((\d+) enrichments?\)<\/title>/g),
      ];
      expect(spend.map((m) => m[1])).toHaveLength(12);
      expect(spend[0]?.[1]).toBe("July 2024");
      expect(spend.slice(10).map((m) => `${m[1]} ${m[2]} ${m[3]}`)).toEqual([
        "May 2025 $0.10 2",
        "June 2025 $0.13 3",
      ]);
      const counts = [...html.matchAll(/<title>(\w+ \d{4}): (\d+) enrichments?<\/title>/g)];
      expect(counts.map((m) => m[2])).toEqual([
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "0",
        "2",
        "3",
      ]);
      expect(html).toContain(
        'aria-label="Velvet&#39;s charge per month, July 2024 to June 2025: $0.23 in all."',
      );
      expect(html).toContain(
        'aria-label="Enrichments per month, July 2024 to June 2025: 5 enrichments in all."',
      );
      // Ticks of the charge's axis in the one money format.
      expect(html).toMatch(/class="y-tick"[^>]*>\$0\.05<\/text>/);
    });

    it("charts enrichments per day of the chosen month", async () => {
      const june = await browser.page("/settings/billing");
      const bars = [...june.html.matchAll(/<title>(\d+ \w+): (\d+) enrichments?<\/title>/g)].map(
        (m) => `${m[1]}=${m[2]}`,
      );
      expect(bars).toHaveLength(15);
      expect(bars[0]).toBe("1 Jun=1");
      expect(june.html).toContain("<title>1 Jun: 1 enrichment</title>");
      expect(bars[13]).toBe("14 Jun=1");
      expect(bars[14]).toBe("15 Jun=1");
      const may = await browser.page("/settings/billing?month=2025-05");
      expect(may.html).toContain("Enrichments per day, May 2025");
      expect([...may.html.matchAll(/<title>3 May: 2 enrichments<\/title>/g)]).toHaveLength(1);
      expect([...may.html.matchAll(/<title>\d+ May: \d+ enrichments?<\/title>/g)]).toHaveLength(31);
      for (const month of ["2024-06", "2031-01", "garbage"]) {
        expect((await browser.page(`/settings/billing?month=${month}`)).html).toContain(
          "Enrichments, June 2025",
        );
      }
    });

    it("says so when nothing was charged", async () => {
      const { browser: fresh } = await signInNewAccount(app);
      const { html } = await fresh.page("/settings/billing");
      expect(html).toContain("No enrichments yet this month");
      expect(html).toContain("$0.00");
    });
    // From the declarations: a setting declared for the page needs nothing here to get its field.
    it("gives each setting declared for the page its field, in order, to the roles that may change it", async () => {
      const declared = pageSettings("billing");
      expect(declared.length).toBeGreaterThan(0);
      const fieldOf = (name: string) => new RegExp(`<(input|textarea)[^>]* name="${name}"`);
      const owner = (await browser.page("/settings/billing")).html;
      expect(owner).toContain('<form method="post" action="/settings/billing" novalidate>');
      const at = declared.map(({ form }) => {
        expect(owner).toContain(`<h2 id="${form.name}-title">${form.title}</h2>`);
        expect(owner).toMatch(fieldOf(form.name));
        return owner.search(fieldOf(form.name));
      });
      expect(at).toEqual([...at].sort((a, b) => a - b));
      for (const role of ["admin", "member"] as const) {
        const { browser: colleague } = await addMember(app.url, browser, role);
        const html = (await colleague.page("/settings/billing")).html;
        for (const { key, form } of declared) {
          expect(html).toContain(`<h2 id="${form.name}-title">${form.title}</h2>`);
          if (mayChange(role, key)) expect(html).toMatch(fieldOf(form.name));
          else {
            expect(html).not.toMatch(fieldOf(form.name));
            expect(html).toContain(`${form.label}: `);
          }
        }
        if (role === "member") expect(html).not.toContain('action="/settings/billing"');
      }
    });

    it("saves the budget by its rule, refuses a wrong one under its field, and lets only owners", async () => {
      const budget = async () =>
        (await readAccountSettings(app.deps.db.kysely, accountId))?.monthlyBudgetUsd;
      const refused = await browser.submit("/settings/billing", "/settings/billing", {
        budget: "ten dollars",
      });
      expect(refused.status).toBe(400);
      const shown = await refused.text();
      expect(shown).toContain(
        '<div class="error-text" id="f-budget-error">Enter an amount in USD, such as 50 or 49.99, or leave it empty for no budget.</div>',
      );
      expect(shown).toMatch(/name="budget"[^>]* value="ten dollars"/);
      expect(shown).toContain("Nothing was saved");
      expect(await budget()).toBeNull();

      const saved = await browser.submit("/settings/billing", "/settings/billing", {
        budget: "$12.50",
      });
      expect(saved.headers.get("location")).toBe("/settings/billing");
      expect(await budget()).toBe("12.50");
      expect(await auditDetails(app.deps.db.kysely, accountId, "monthly_budget.changed")).toEqual([
        { from: null, to: "12.50" },
      ]);
      const page = (await browser.page("/settings/billing")).html;
      expect(page).toContain("of $12.50 spent this month");
      expect(page).toMatch(/name="budget"[^>]* value="12.50"/);
      expect(page).not.toContain("f-budget-error");

      // Looking at another month: the form posts with it, and a refusal or a save comes back to it.
      const may = "/settings/billing?month=2025-05";
      expect((await browser.page(may)).html).toContain(
        '<form method="post" action="/settings/billing?month=2025-05" novalidate>',
      );
      const refusedInMay = await browser.submit(may, may, { budget: "lots" });
      expect(refusedInMay.status).toBe(400);
      const shownInMay = await refusedInMay.text();
      expect(shownInMay).toContain("Enrichments, May 2025");
      expect(shownInMay).toContain('action="/settings/billing?month=2025-05"');
      const savedInMay = await browser.submit(may, may, { budget: "12.50" });
      expect(savedInMay.headers.get("location")).toBe(may);
      // A month that cannot be looked at comes back to this one.
      const odd = await browser.submit("/settings/billing", "/settings/billing?month=1999-01", {
        budget: "12.50",
      });
      expect(odd.headers.get("location")).toBe("/settings/billing");

      // A form without the field leaves the budget as it is.
      await browser.submit("/settings/billing", "/settings/billing", {});
      expect(await budget()).toBe("12.50");

      const { browser: admin } = await addMember(app.url, browser, "admin");
      const denied = await admin.submit("/settings/billing", "/settings/billing", { budget: "1" });
      expect(denied.status).toBe(403);
      expect(await budget()).toBe("12.50");
    });
  });
}
