import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../../test/browser/http-browser.js";
import { FIXTURE_VIP_SIGNALS, insertEnrichedRow } from "../../../../test/browser/result-rows.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";

const DAY = 86_400_000;

function stat(html: string, label: string): string | undefined {
  return new RegExp(`<div class="label">${label}</div><div class="value">([^<]+)</div>`).exec(
    html,
  )?.[1];
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Overview on ${engine.name}`, () => {
    const today = Date.UTC(2025, 5, 30, 15);
    let t = today;
    const clock = { now: () => t };
    let app: TestApp;
    let browser: HttpBrowser;

    beforeAll(async () => {
      app = await startTestApp(engine, { clock });
      const signed = await signInNewAccount(app, { storeName: "Overview Store" });
      browser = signed.browser;
      const add = async (daysAgo: number, email: string, vip: boolean | null, orderId: string) => {
        t = today - daysAgo * DAY;
        const res = await app.submit(signed.apiKey, {
          email,
          firstName: email.split("@")[0],
          lastName: "Test",
          order: { id: orderId, total: "10.00" },
        });
        const { customerId } = (await res.json()) as { customerId: string };
        if (vip !== null) {
          const signals = vip
            ? FIXTURE_VIP_SIGNALS
            : [{ source: "offline", signal: "order_value", value: "10.00 USD", points: 0 }];
          await insertEnrichedRow(app.deps.db.kysely, customerId, { signals, at: t + 5000 });
        }
      };
      await add(0, "today-vip@example.com", true, "1");
      await add(2, "recent@example.com", false, "2");
      await add(5, "pending@example.com", null, "3");
      await add(20, "older-vip@example.com", true, "4");
      await add(60, "old@example.com", false, "5");
      t = today - 1 * DAY;
      await app.submit(signed.apiKey, {
        email: "recent@example.com",
        firstName: "R",
        lastName: "T",
        order: { id: "6" },
      });
      t = today;
    });
    afterAll(() => app?.close());

    it("counts customers, VIPs, the VIP rate, orders and enrichments over 7, 30 and 90 days", async () => {
      const week = (await browser.page("/?period=7")).html;
      expect(stat(week, "New customers")).toBe("3");
      expect(stat(week, "VIPs")).toBe("1");
      expect(stat(week, "VIP rate")).toBe("50%");
      expect(stat(week, "Orders")).toBe("4");
      expect(stat(week, "Enrichments")).toBe("2");
      expect(week).toContain("1 pending · 0 failed");
      const month = (await browser.page("/")).html;
      expect(month).toMatch(/<a href="\/\?period=30" aria-current="true">/);
      expect(stat(month, "New customers")).toBe("4");
      expect(stat(month, "VIPs")).toBe("2");
      expect(stat(month, "VIP rate")).toBe("67%");
      const quarter = (await browser.page("/?period=90")).html;
      expect(stat(quarter, "New customers")).toBe("5");
      expect(stat(quarter, "Orders")).toBe("6");
      expect((await browser.page("/?period=3650")).html).toMatch(
        /<a href="\/\?period=30" aria-current="true">/,
      );
    });

    it("charts new customers and VIPs per day, and lists the latest VIPs first", async () => {
      const { html } = await browser.page("/?period=7");
      const bars = [...html.matchAll(/<g><title>([^<]+)<\/title>/g)].map((m) => m[1]);
      expect(bars).toHaveLength(7);
      expect(bars[6]).toBe("30 Jun: 1 new customer, 1 VIP");
      expect(bars[4]).toBe("28 Jun: 1 new customer, 0 VIPs");
      const vips = [
        ...html.matchAll(
          /<a href="\/customers\/[0-9a-f-]+">([^<]+)<\/a> <span class="badge vip">/g,
        ),
      ].map((m) => m[1]);
      expect(vips).toEqual(["today-vip Test", "older-vip Test"]);
    });

    it("shows a new account how to get started", async () => {
      const { browser: fresh } = await signInNewAccount(app);
      const { html } = await fresh.page("/");
      expect(html).toContain("Get started in three steps");
      // The example request can be copied with one click (the script shows the button).
      expect(html).toMatch(/<pre class="code" id="curl-example"[^>]*>export VELVET_API_KEY=/);
      expect(html).toContain('data-copy="curl-example">Copy</button>');
      expect(html).toContain("You have an active key");
      expect(html).toContain("/api/v1/orders");
      expect(html).not.toContain("New customers per day");
    });
  });
}
