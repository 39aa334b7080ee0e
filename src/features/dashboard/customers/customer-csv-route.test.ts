/**
 * Tiers and the "Download CSV" in the dashboard, over real HTTP on both engines: tiers saved in
 * Settings → Alerts (refused field by field, audited), the Customers list's tier column and
 * filter, the customer page's tier, and GET /customers.csv: an attachment of every customer the
 * filters match, formula-like cells as text, for owners and admins; a member is refused and a
 * visitor sent to log in.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpBrowser as Browser, type HttpBrowser } from "../../../../test/browser/http-browser.js";
import { auditDetails } from "../../../../test/support/audit-details.js";
import { seedListedCustomers } from "../../../../test/support/customer-list-fixtures.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { addMember } from "../../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";

const HEADER =
  '"email","name","score","tier","vip","vip_since","lifetime_spend","currency","order_count"';

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`tiers and the customers CSV on ${engine.name}`, () => {
    let app: TestApp;
    let owner: HttpBrowser;
    let accountId: string;
    let ids: string[];

    const saveAlerts = (browser: HttpBrowser, tiers: string) =>
      browser.submit("/settings/alerts", "/settings/alerts", {
        threshold: "70",
        tiers,
        webhook: "",
        emails: "",
      });

    beforeAll(async () => {
      app = await startTestApp(engine);
      ({ browser: owner, accountId } = await signInNewAccount(app, { storeName: "CSV Store" }));
      const store = await app.deps.db.kysely
        .selectFrom("stores")
        .select("id")
        .where("account_id", "=", accountId)
        .where("sample", "=", 0)
        .executeTakeFirstOrThrow();
      ids = await seedListedCustomers(app.deps.db.kysely, store.id, [
        {
          email: "formula@example.com",
          firstName: "=1+2",
          lastName: "",
          score: 95,
          vip: true,
          orders: [{ total: "500.00", currency: "USD" }],
        },
        { email: "silver@example.com", firstName: "Sil", lastName: "Ver", score: 85, vip: true },
        { email: "plain@example.com", firstName: "Plain", lastName: "Person", score: 30 },
      ]);
    });
    afterAll(() => app?.close());

    it("refuses bad tiers in the form, saying why, and saves good ones with an audit record", async () => {
      const bad = await saveAlerts(owner, "Gold:90, Silver:90, :5");
      expect(bad.status).toBe(400);
      const html = await bad.text();
      expect(html).toContain("Nothing was saved");
      expect(html).toContain("&quot;:5&quot; has no tier name before the colon");
      expect(html).toContain("have the same floor 90");
      expect(html).toContain('value="Gold:90, Silver:90, :5"');

      const good = await saveAlerts(owner, "Silver:80, Gold:90");
      expect(good.status).toBe(303);
      const { html: saved } = await owner.page("/settings/alerts");
      expect(saved).toContain('value="Gold:90, Silver:80"');
      const audit = await auditDetails(app.deps.db.kysely, accountId, "alert_settings.changed");
      expect(audit.map((a) => (a as { tiers?: unknown }).tiers)).toContainEqual({
        from: "none",
        to: "Gold:90, Silver:80",
      });
      // A form without the field (an older page) leaves the tiers alone.
      await owner.submit("/settings/alerts", "/settings/alerts", {
        threshold: "70",
        webhook: "",
        emails: "",
      });
      expect((await owner.page("/settings/alerts")).html).toContain('value="Gold:90, Silver:80"');
    });

    it("shows the tier in the list and on the customer page, and filters by it", async () => {
      const { html: list } = await owner.page("/customers");
      expect(list).toContain('<th scope="col">Tier</th>');
      expect(list).toContain('<span class="badge tier" title="Tier">Gold</span>');
      expect(list).toContain('<option value="Silver">Silver (80+)</option>');
      const { html: silver } = await owner.page("/customers?tier=silver");
      expect(silver).toContain("Sil Ver");
      expect(silver).not.toContain("Plain Person");
      expect(silver).toContain('href="/customers.csv?tier=silver"');
      const { html: page } = await owner.page(`/customers/${ids[0]}`);
      expect(page).toContain("<dt>Tier</dt><dd>Gold</dd>");
    });

    it("downloads the filtered customers as a CSV attachment, formula-like cells as text", async () => {
      const res = await owner.get("/customers.csv?vip=1");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/csv; charset=utf-8/);
      expect(res.headers.get("content-disposition")).toMatch(
        /^attachment; filename="velvet-customers-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers.get("cache-control")).toBe("no-store");
      const lines = (await res.text()).split("\r\n");
      expect(lines[0]).toBe(HEADER);
      expect(lines[1]).toMatch(
        /^"formula@example\.com","'=1\+2",95,"Gold",true,"[^"]+","500\.00","USD",1$/,
      );
      expect(lines[2]).toMatch(/^"silver@example\.com","Sil Ver",85,"Silver",true,/);
      expect(lines.slice(3)).toEqual([""]);

      const search = await (await owner.get("/customers.csv?q=plain")).text();
      expect(search.split("\r\n").slice(1)).toEqual([
        '"plain@example.com","Plain Person",30,,false,,,,0',
        "",
      ]);
      // Recorded in the audit trail; the search's text is not.
      expect(await auditDetails(app.deps.db.kysely, accountId, "customers.listed")).toEqual(
        expect.arrayContaining([
          { format: "csv", filters: "VIPs only" },
          { format: "csv", filters: "a search" },
        ]),
      );
    });

    it("refuses a member (no link on their page either), and sends a visitor to log in", async () => {
      const { browser: member } = await addMember(app.url, owner, "member");
      const res = await member.get("/customers.csv");
      expect(res.status).toBe(403);
      expect(await res.text()).not.toContain("formula@example.com");
      expect(await (await member.get("/customers")).text()).not.toContain("Download CSV");
      const visitor = await new Browser(app.url).get("/customers.csv");
      expect(visitor.status).toBe(303);
      expect(visitor.headers.get("location")).toMatch(/^\/login/);
      expect(await visitor.text()).not.toContain("formula@example.com");
    });
  });
}
