import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../../test/browser/http-browser.js";
import {
  FIXTURE_VIP_SIGNALS,
  insertAlertRows,
  insertEnrichedRow,
} from "../../../../test/browser/result-rows.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";

function namesOnPage(html: string): string[] {
  return [...html.matchAll(/<a href="\/customers\/[0-9a-f-]{36}">([^<]+)<\/a>/g)].map(
    (m) => m[1] as string,
  );
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Customers pages on ${engine.name}`, () => {
    let app: TestApp;
    let browser: HttpBrowser;
    let apiKey: string;
    const ids = {} as Record<"vip" | "plain" | "failed" | "pending" | "evil", string>;

    async function submit(email: string, firstName: string, lastName: string, order?: object) {
      const res = await app.submit(apiKey, {
        email,
        firstName,
        lastName,
        ...(order ? { order } : {}),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { customerId: string }).customerId;
    }

    beforeAll(async () => {
      app = await startTestApp(engine);
      ({ browser, apiKey } = await signInNewAccount(app));
      const db = app.deps.db.kysely;
      ids.vip = await submit("vera@corp.example", "Vera", "Voss", {
        id: "o-1",
        number: "1001",
        total: "1250.00",
        currency: "EUR",
      });
      await submit("vera@corp.example", "Vera", "Voss", {
        id: "o-2",
        number: "1002",
        total: "80.5",
      });
      ids.plain = await submit("paul@example.com", "Paul", "Plain", { id: "o-3", total: "40.00" });
      ids.failed = await submit("fay@example.com", "Fay", "Fail");
      ids.pending = await submit("pat@example.com", "Pat", "Pending");
      ids.evil = await submit("evil@example.com", "<script>alert(1)</script>", "100%_off");
      const vip = await insertEnrichedRow(db, ids.vip, {
        signals: FIXTURE_VIP_SIGNALS,
        profile: {
          title: "CEO",
          company: "Corp",
          netWorthUsd: 5_000_000,
          social: [{ network: "linkedin", handle: "vvoss", url: null, followers: 5400 }],
        },
      });
      await insertEnrichedRow(db, ids.plain, {
        signals: [{ source: "offline", signal: "order_value", value: "40.00 USD", points: 0 }],
      });
      await insertEnrichedRow(db, ids.evil, {
        signals: [
          {
            source: "offline",
            signal: "email_domain",
            value: "<img src=x onerror=alert(2)>",
            points: 5,
          },
        ],
      });
      await db
        .updateTable("customers")
        .set({ enrichment_status: "failed" })
        .where("id", "=", ids.failed)
        .execute();
      await db
        .insertInto("enrichments")
        .values({
          customer_id: ids.failed,
          attempts: 3,
          last_error: "pdl: 503 upstream down",
          updated_at: Date.now(),
        })
        .execute();
      await insertAlertRows(db, {
        accountId: (
          await db
            .selectFrom("customers")
            .innerJoin("stores", "stores.id", "customers.store_id")
            .select("stores.account_id")
            .where("customers.id", "=", ids.vip)
            .executeTakeFirstOrThrow()
        ).account_id,
        customerId: ids.vip,
        channel: "chat",
        status: "delivered",
        target: "https://hooks.slack.com/…wxyz",
        score: vip.score,
        attempts: [
          { outcome: "retry", statusCode: 503, error: "503 server_error" },
          { outcome: "delivered", statusCode: 200, error: null },
        ],
      });
    });
    afterAll(() => app?.close());

    it("lists every customer, newest first, with status, score and order count", async () => {
      const { html } = await browser.page("/customers");
      expect(namesOnPage(html)).toEqual([
        "&lt;script&gt;alert(1)&lt;/script&gt; 100%_off",
        "Pat Pending",
        "Fay Fail",
        "Paul Plain",
        "Vera Voss",
      ]);
      expect(html).toContain("5 customers in your store");
      expect(html).not.toContain("<script>alert(1)");
      expect(html).toMatch(/Vera Voss<\/a> <span class="badge vip">VIP<\/span>/);
    });

    it("searches by name or e-mail, case-insensitively, with LIKE wildcards taken literally", async () => {
      expect(namesOnPage((await browser.page("/customers?q=VERA")).html)).toEqual(["Vera Voss"]);
      expect(namesOnPage((await browser.page("/customers?q=paul%40example")).html)).toEqual([
        "Paul Plain",
      ]);
      expect(namesOnPage((await browser.page("/customers?q=paul%20plain")).html)).toEqual([
        "Paul Plain",
      ]);
      expect(namesOnPage((await browser.page("/customers?q=100%25_")).html)).toHaveLength(1);
      expect(namesOnPage((await browser.page("/customers?q=%25")).html)).toHaveLength(1);
      expect(namesOnPage((await browser.page("/customers?q=_")).html)).toHaveLength(1);
      expect((await browser.page("/customers?q=nobody")).html).toContain("No customers match");
    });

    it("filters VIPs and statuses, and sorts by score", async () => {
      expect(namesOnPage((await browser.page("/customers?vip=1")).html)).toEqual(["Vera Voss"]);
      expect(namesOnPage((await browser.page("/customers?status=failed")).html)).toEqual([
        "Fay Fail",
      ]);
      expect(namesOnPage((await browser.page("/customers?status=pending")).html)).toEqual([
        "Pat Pending",
      ]);
      const byScore = namesOnPage((await browser.page("/customers?sort=score")).html);
      expect(byScore.slice(0, 3)).toEqual([
        "Vera Voss",
        "&lt;script&gt;alert(1)&lt;/script&gt; 100%_off",
        "Paul Plain",
      ]);
      const odd = await browser.page("/customers?sort=nope&status=weird&vip=yes&page=-4");
      expect(namesOnPage(odd.html)).toHaveLength(5);
    });

    it("pages through 50 at a time", async () => {
      const db = app.deps.db.kysely;
      const store = await db
        .selectFrom("customers")
        .select("store_id")
        .where("id", "=", ids.vip)
        .executeTakeFirstOrThrow();
      const now = Date.now() - 86_400_000;
      await db
        .insertInto("customers")
        .values(
          Array.from({ length: 60 }, (_, i) => ({
            id: `00000000-0000-7000-8000-${String(i).padStart(12, "0")}`,
            store_id: store.store_id,
            email: `bulk${i}@example.com`,
            email_normalized: `bulk${i}@example.com`,
            first_name: "Bulk",
            last_name: String(i).padStart(2, "0"),
            phone: null,
            address_city: null,
            address_state: null,
            address_zipcode: null,
            address_country: null,
            enrichment_status: "pending" as const,
            created_at: now - i * 1000,
            updated_at: now,
          })),
        )
        .execute();
      const first = await browser.page("/customers?q=bulk");
      expect(namesOnPage(first.html)).toHaveLength(50);
      expect(first.html).toContain("1–50 of 60 customers");
      expect(first.html).toContain('href="/customers?q=bulk&amp;page=2"');
      const second = await browser.page("/customers?q=bulk&page=2");
      expect(namesOnPage(second.html)).toEqual(
        Array.from({ length: 10 }, (_, i) => `Bulk ${50 + i}`),
      );
      expect(second.html).toContain("51–60 of 60 customers");
      expect(namesOnPage((await browser.page("/customers?q=bulk&page=9")).html)).toHaveLength(0);
      await db.deleteFrom("customers").where("email", "like", "bulk%").execute();
    });

    it("shows a VIP's score against the threshold, every signal, profile, orders and alert deliveries", async () => {
      const { res, html } = await browser.page(`/customers/${ids.vip}`);
      expect(res.status).toBe(200);
      expect(html).toContain('<span class="score">82</span>');
      expect(html).toContain("threshold 70");
      expect(html).toContain("the score is above the threshold of 70");
      for (const text of [
        "Seniority",
        "C-level",
        "+35",
        "Net worth",
        "$5,000,000",
        "+25",
        "Order value",
        "$1,250.00",
        "+22",
      ])
        expect(html).toContain(text);
      expect(html).toContain("CEO");
      expect(html).toContain("5,400 followers");
      expect(html).toContain("€1,250.00");
      expect(html).toContain("$80.50");
      expect(html).toContain("Team chat");
      expect(html).toContain("hooks.slack.com/…wxyz");
      expect(html).toContain("Delivered");
      expect(html).toContain("2 attempts");
      expect(html).toContain("HTTP 503");
      expect(html).toContain("503 server_error");
    });

    it("explains failed and pending enrichments, and escapes what customers send", async () => {
      const failed = (await browser.page(`/customers/${ids.failed}`)).html;
      expect(failed).toContain("Enrichment did not complete");
      expect(failed).toContain("pdl: 503 upstream down");
      expect(failed).toContain("retried automatically with this customer's next order");
      expect((await browser.page(`/customers/${ids.pending}`)).html).toContain(
        "Enrichment is running",
      );
      const evil = (await browser.page(`/customers/${ids.evil}`)).html;
      expect(evil).not.toContain("<script>alert(1)");
      expect(evil).not.toContain("<img src=x");
      expect(evil).toContain("&lt;img src=x onerror=alert(2)&gt;");
      expect(evil).toContain("No alerts: alerts are sent for VIPs only.");
    });

    it("sends a new account's empty list to the API key page", async () => {
      const { browser: fresh } = await signInNewAccount(app);
      const { html } = await fresh.page("/customers");
      expect(html).toContain("No customers yet");
      expect(html).toContain('href="/settings/integrations"');
    });
  });
}
