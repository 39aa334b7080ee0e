/**
 * Settings → Alerts helps choose a threshold and test the e-mail channel: the score
 * distribution with VIP counts per threshold, the plain notice when no enrichment provider is
 * configured, and "Send a test e-mail" through a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken, HttpBrowser } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startSmtpServer, type TestSmtpServer } from "../../../../test/support/smtp-server.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { newId } from "../../../lib/ids.js";
import { OFFLINE_MAX_SCORE } from "../../enrichment/score/weights.js";
import { distributionOf } from "./score-distribution.js";
import { scoreDistributionPanel } from "./score-distribution-view.js";
import { NO_SMTP_NOTICE } from "./test-email.js";

describe("distributionOf", () => {
  it("counts VIPs strictly above each threshold and bands scores by ten", () => {
    const d = distributionOf([
      [0, 3],
      [45, 1],
      [46, 2],
      [70, 1],
      [71, 1],
      [100, 2],
    ]);
    expect(d.total).toBe(10);
    expect(d.bands).toEqual([3, 0, 0, 0, 3, 0, 0, 2, 0, 2]);
    expect([
      d.vipsAbove(0),
      d.vipsAbove(45),
      d.vipsAbove(70),
      d.vipsAbove(99),
      d.vipsAbove(100),
    ]).toEqual([7, 6, 3, 2, 0]);
    // At most 5 % of 10 customers is less than one: the highest threshold that still catches
    // someone (99: the two customers at 100), never 100, which catches nobody.
    expect(d.thresholdForShare(0.05)).toBe(99);
    expect(d.thresholdForShare(0.3)).toBe(70);
    expect(distributionOf([]).thresholdForShare(0.05)).toBeNull();
    expect(distributionOf([[0, 4]]).thresholdForShare(0.05)).toBeNull();
    // One customer scoring 48: "above 47" catches them; "above 48" would catch nobody.
    const one = distributionOf([[48, 1]]);
    expect(one.thresholdForShare(0.05)).toBe(47);
    expect(one.vipsAbove(one.thresholdForShare(0.05) ?? 100)).toBe(1);
    expect(scoreDistributionPanel(one, 70).toString()).toMatch(
      /Above 47 <span[^>]*>\(your top 1 customer\)/,
    );
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `choosing a threshold and testing e-mail (${engine.name})`,
    () => {
      let app: TestApp;
      let smtp: TestSmtpServer;
      beforeAll(async () => {
        smtp = await startSmtpServer();
        app = await startTestApp(engine, { env: { SMTP_URL: smtp.url } });
      });
      afterAll(async () => {
        await app?.close();
        await smtp?.close();
      });

      async function storeOf(browser: HttpBrowser) {
        const { html } = await browser.page("/settings/alerts");
        const name = /<span class="who">([^·<]+) ·/.exec(html)?.[1]?.trim() ?? "";
        return app.deps.db.kysely
          .selectFrom("stores")
          .select(["stores.id", "stores.account_id"])
          .where("name", "=", name)
          .executeTakeFirstOrThrow();
      }

      async function seedScores(storeId: string, scores: number[]) {
        const db = app.deps.db.kysely;
        const now = Date.now();
        for (const [i, score] of scores.entries()) {
          const id = newId(now + i);
          const email = `c${i}-${id}@example.com`;
          await db
            .insertInto("customers")
            .values({
              id,
              store_id: storeId,
              email,
              email_normalized: email,
              first_name: "C",
              last_name: String(i),
              phone: null,
              address_city: null,
              address_state: null,
              address_zipcode: null,
              address_country: null,
              enrichment_status: "enriched",
              created_at: now,
              updated_at: now,
            })
            .execute();
          await db
            .insertInto("enrichments")
            .values({
              customer_id: id,
              score,
              vip: score > 70 ? 1 : 0,
              threshold: 70,
              signals: "[]",
              profile: "{}",
              attempts: 1,
              last_error: null,
              started_at: now,
              enriched_at: now,
              updated_at: now,
            })
            .execute();
        }
      }

      it("shows how the store's customers spread over the score, and the VIPs at each threshold", async () => {
        const { browser } = await signInNewAccount(app, { storeName: `Chooser ${engine.name}` });
        const empty = await browser.page("/settings/alerts");
        expect(empty.html).toContain("Once your first customers are enriched");
        const store = await storeOf(browser);
        await seedScores(store.id, [5, 12, 30, 44, 46, 46, 52, 71, 88, 95]);
        const { html } = await browser.page("/settings/alerts");
        expect(html).toContain(
          "At your threshold of 70, <strong>3 of 10 enriched customers</strong> are VIPs (30%)",
        );
        const row = (t: number) =>
          new RegExp(
            `Above ${t}(?: <span[^>]*>\\([^)]*\\)</span>)?</td>\\s*<td data-label="VIPs" class="num">([\\d,]+) of 10</td>`,
          ).exec(html)?.[1];
        expect([row(30), row(40), row(50), row(60), row(70), row(80), row(90)]).toEqual([
          "7",
          "7",
          "4",
          "3",
          "3",
          "2",
          "1",
        ]);
        expect(html).toMatch(
          /<tr class="current">\s*<td class="primary-cell">Above 70 <span class="muted small">\(current\)<\/span>/,
        );
        expect(html).toMatch(
          /aria-label="Scores of 10 enriched customers in bands of ten: 0–9: 1, 10–19: 1, 20–29: 0, 30–39: 1, 40–49: 3, 50–59: 1, 60–69: 0, 70–79: 1, 80–89: 1, 90–100: 1\. Threshold 70: 3 VIPs\."/,
        );
        // Every customer above the threshold is drawn in the VIP colour, the band it cuts too.
        const band = (from: number) =>
          new RegExp(`<g><title>Score ${from}–\\d+: [^<]*</title>(.*?)</g>`).exec(html)?.[1] ?? "";
        expect(band(70)).toContain('class="bar primary"');
        expect(band(70)).not.toContain('class="bar"');
        expect(band(60)).toBe("");
        expect(band(40)).toContain('class="bar"');
        expect(band(40)).not.toContain("primary");
        expect(html).toContain("<title>Score 70–79: 1 customer, 1 VIP</title>");
        // Another account's customers never count.
        const other = await signInNewAccount(app, { storeName: `Chooser other ${engine.name}` });
        expect((await other.browser.page("/settings/alerts")).html).toContain(
          "Once your first customers are enriched",
        );
      });

      it("says plainly when no enrichment provider is configured, briefly where merchants work and in full on System", async () => {
        const { browser } = await signInNewAccount(app);
        for (const path of ["/settings/alerts", "/"]) {
          const { html } = await browser.page(path);
          expect(html, path).toContain("No enrichment provider is configured on this server.");
          expect(html, path).toContain(`reach at most ${OFFLINE_MAX_SCORE} of 100`);
          expect(html, path).toContain('<a href="/settings/system#server">Settings → System</a>');
          expect(html, path).not.toContain("<code>PDL_API_KEY</code>");
        }
        const { html } = await browser.page("/settings/system");
        expect(html).toContain("No enrichment provider is configured on this server.");
        for (const variable of [
          "PDL_API_KEY",
          "ENRICHLAYER_API_KEY",
          "FULLCONTACT_API_KEY",
          "GRAVATAR_ENABLED=true",
        ])
          expect(html).toContain(`<code>${variable}</code>`);
        expect(html).toContain("SHA-256 hash of each new customer&#39;s e-mail address");
        expect(html).toContain("<dt>Enrichment providers</dt><dd>None: offline signals only</dd>");
      });

      it("lets anyone signed in fold the notice away, remembered in this browser, and open it again", async () => {
        const { browser } = await signInNewAccount(app);
        const before = await browser.page("/?period=7");
        expect(before.html).toMatch(/<div class="notice info" role="status" id="no-providers">/);
        const folded = await browser.submit("/?period=7", "/notices/fold", {
          notice: "no-providers",
          back: "/?period=7",
        });
        expect(folded.status).toBe(303);
        expect(folded.headers.get("location")).toBe("/?period=7");
        for (const path of ["/", "/settings/alerts"]) {
          const { html } = await browser.page(path);
          expect(html, path).toMatch(
            /<details class="notice info folded" id="no-providers">\s*<summary>No enrichment provider is configured on this server<\/summary>/,
          );
          expect(html, path).not.toContain('role="status" id="no-providers"');
        }
        // The operator's page keeps it in full.
        expect((await browser.page("/settings/system")).html).toContain('id="no-providers-full"');
        // A page outside the server is never where the form sends the browser back to.
        const away = await browser.submit("/", "/notices/unfold", {
          notice: "no-providers",
          back: "//evil.example/",
        });
        expect(away.headers.get("location")).toBe("/");
        expect((await browser.page("/")).html).toContain('role="status" id="no-providers"');
      });

      it("sends a test e-mail to the saved addresses through SMTP", async () => {
        const { browser } = await signInNewAccount(app);
        const none = await browser.submit("/settings/alerts", "/settings/alerts/test-email", {});
        expect(await none.text()).toContain("Save an alert e-mail address and confirm it");
        const mailed = smtp.messages.length;
        await browser.submit("/settings/alerts", "/settings/alerts", {
          threshold: "70",
          webhook: "",
          emails: "team@acme.test, owner@acme.test",
        });
        // Unconfirmed addresses get no test e-mail either (no mail relay).
        const early = await browser.submit("/settings/alerts", "/settings/alerts/test-email", {});
        expect(await early.text()).toContain("Save an alert e-mail address and confirm it");
        expect(smtp.messages).toHaveLength(mailed + 2);
        for (const mail of smtp.messages.slice(mailed)) {
          const link = /\/alert-emails\/confirm\?token=[\w-]{43}/.exec(mail.parsed.text ?? "")?.[0];
          const reader = new HttpBrowser(app.url);
          const { html } = await reader.page(link ?? "");
          const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
          await reader.post("/alert-emails/confirm", { _csrf: csrfToken(html), token });
        }
        const before = smtp.messages.length;
        const res = await browser.submit("/settings/alerts", "/settings/alerts/test-email", {});
        expect(res.status).toBe(200);
        expect(await res.text()).toContain("Test e-mail sent to team@acme.test, owner@acme.test.");
        expect(smtp.messages).toHaveLength(before + 1);
        expect(smtp.messages.at(-1)?.rcptTo).toEqual(["team@acme.test", "owner@acme.test"]);
        expect(smtp.messages.at(-1)?.parsed.subject).toMatch(/^Velvet test e-mail for /);
      });
    },
  );

  describe.skipIf(!engine.available)(
    `without SMTP_URL and with a provider (${engine.name})`,
    () => {
      let app: TestApp;
      beforeAll(async () => {
        app = await startTestApp(engine, { env: { GRAVATAR_ENABLED: "true" } });
      });
      afterAll(() => app?.close());

      it("refuses the test e-mail saying why, and drops the provider notice", async () => {
        const { browser } = await signInNewAccount(app);
        await browser.submit("/settings/alerts", "/settings/alerts", {
          threshold: "70",
          webhook: "",
          emails: "team@acme.test",
        });
        const res = await browser.submit("/settings/alerts", "/settings/alerts/test-email", {});
        const html = await res.text();
        expect(html).toContain(NO_SMTP_NOTICE.slice(0, 60));
        expect(html).not.toContain("No enrichment provider is configured");
        expect((await browser.page("/")).html).not.toContain(
          "No enrichment provider is configured",
        );
        // Settings → System says what the server has, and what it lacks.
        const system = (await browser.page("/settings/system")).html;
        expect(system).toContain("<dt>Enrichment providers</dt><dd>Gravatar</dd>");
        expect(system).toContain("Not set up (<code>SMTP_URL</code>)");
        expect(system).not.toContain("No enrichment provider is configured");
      });
    },
  );
}
