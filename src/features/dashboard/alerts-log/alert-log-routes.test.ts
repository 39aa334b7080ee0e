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

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Alerts log on ${engine.name}`, () => {
    let app: TestApp;
    let browser: HttpBrowser;

    beforeAll(async () => {
      app = await startTestApp(engine);
      const signed = await signInNewAccount(app);
      browser = signed.browser;
      const db = app.deps.db.kysely;
      const res = await app.submit(signed.apiKey, {
        email: "vic@example.com",
        firstName: "Vic",
        lastName: "Tor",
      });
      const { customerId } = (await res.json()) as { customerId: string };
      const { accountId } = await db
        .selectFrom("customers")
        .innerJoin("stores", "stores.id", "customers.store_id")
        .select("stores.account_id as accountId")
        .where("customers.id", "=", customerId)
        .executeTakeFirstOrThrow();
      const { score } = await insertEnrichedRow(db, customerId, { signals: FIXTURE_VIP_SIGNALS });
      const base = Date.now();
      await insertAlertRows(db, {
        accountId,
        customerId,
        channel: "chat",
        status: "failed",
        target: "https://hooks.slack.com/…ab12",
        score,
        at: base,
        attempts: [{ outcome: "failed", statusCode: 404, error: "404 channel_not_found" }],
      });
      await insertAlertRows(db, {
        accountId,
        customerId,
        channel: "email",
        status: "delivered",
        target: "team@example.com",
        score,
        at: base + 1,
        attempts: [
          { outcome: "retry", statusCode: 451, error: "451 try again later" },
          { outcome: "delivered", statusCode: 250, error: null },
        ],
      });
    });
    afterAll(() => app?.close());

    it("lists each channel's alert with its status, error and attempts, newest first", async () => {
      const { html } = await browser.page("/alerts");
      const rows = html.split("<tr>").slice(2);
      expect(rows).toHaveLength(2);
      expect(rows[0]).toContain("E-mail");
      expect(rows[0]).toContain("team@example.com");
      expect(rows[0]).toContain('<span class="badge ok">Delivered</span>');
      expect(rows[0]).toContain("2 attempts");
      expect(rows[0]).toContain("451 try again later");
      expect(rows[1]).toContain("Team chat");
      expect(rows[1]).toContain('<span class="badge bad">Failed</span>');
      expect(rows[1]).toContain("404 channel_not_found");
      expect(rows[1]).toContain('82 <span class="muted small">/ 70</span>');
      expect(html).toMatch(/href="\/customers\/[0-9a-f-]{36}">Vic Tor<\/a>/);
    });

    it("filters by delivery status", async () => {
      const failed = (await browser.page("/alerts?status=failed")).html;
      expect(failed).toContain("404 channel_not_found");
      expect(failed).not.toContain("team@example.com");
      expect((await browser.page("/alerts?status=pending")).html).toContain(
        "No alerts with this status",
      );
    });

    it("tells a new account where alerts come from and how to set channels up", async () => {
      const { browser: fresh } = await signInNewAccount(app);
      const { html } = await fresh.page("/alerts");
      expect(html).toContain("No alerts yet");
      expect(html).toContain("Set up alert channels");
    });
  });
}
