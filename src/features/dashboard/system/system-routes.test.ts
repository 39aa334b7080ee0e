/**
 * Settings → System on both engines: the account's own given-up enrichments and alerts, the
 * Retry button (job due again, the enrichment or alert pending again), another account's items
 * neither shown nor retryable, and CSRF on the action.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpBrowser, signUpBrowser } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { writeChannelValues } from "../../alerts/channels/channel-registry.js";
import { enqueueVipAlerts } from "../../alerts/enqueue-vip-alerts.js";
import { markAlertFailed } from "../../alerts/record-delivery-attempt.js";
import { markEnrichmentFailed } from "../../enrichment/save-enrichment.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Settings → System on ${engine.name}`, () => {
    let app: TestApp;
    let browser: HttpBrowser;
    let mine: { customerId: string; alertId: string };
    let theirs: string;

    /** A customer whose enrichment gave up, as the worker leaves it (job exhausted, failed). */
    async function failedCustomer(apiKey: string, email: string): Promise<string> {
      const res = await app.submit(apiKey, { email, firstName: "Ada", lastName: "Lovelace" });
      const { customerId } = (await res.json()) as { customerId: string };
      await app.deps.db.kysely
        .updateTable("jobs")
        .set((eb) => ({ attempts: eb.ref("max_attempts"), last_error: "pdl: HTTP 503" }))
        .where("job_key", "=", `enrich-customer:${customerId}`)
        .execute();
      await markEnrichmentFailed(app.deps, customerId, "pdl: HTTP 503");
      return customerId;
    }

    beforeAll(async () => {
      app = await startTestApp(engine, { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
      const signed = await signUpBrowser(app.url);
      browser = signed.browser;
      const customerId = await failedCustomer(signed.apiKey, "ada@example.com");
      const owner = await app.deps.db.kysely
        .selectFrom("customers")
        .innerJoin("stores", "stores.id", "customers.store_id")
        .select("stores.account_id")
        .where("customers.id", "=", customerId)
        .executeTakeFirstOrThrow();
      await writeChannelValues(
        app.deps.db.kysely,
        owner.account_id,
        { slack_webhook_url: "https://hooks.example.com/services/T/B/secret1234" },
        app.deps.config.storeSync.tokenKey,
      );
      const [alert] = await app.deps.db.kysely
        .transaction()
        .execute((trx) =>
          enqueueVipAlerts(
            trx,
            { accountId: owner.account_id, customerId, score: 90, threshold: 70 },
            Date.now(),
          ),
        );
      const alertId = alert?.alertId as string;
      await app.deps.db.kysely
        .updateTable("jobs")
        .set((eb) => ({ attempts: eb.ref("max_attempts") }))
        .where("job_key", "=", `alert:${alertId}`)
        .execute();
      await markAlertFailed(app.deps.db.kysely, alertId, "HTTP 410 channel_is_archived");
      mine = { customerId, alertId };
      const other = await app.createAccount();
      theirs = await failedCustomer(other.apiKey, "grace@example.com");
    });
    afterAll(() => app?.close());

    const status = async (customerId: string) =>
      (
        await app.deps.db.kysely
          .selectFrom("customers")
          .select("enrichment_status")
          .where("id", "=", customerId)
          .executeTakeFirstOrThrow()
      ).enrichment_status;

    it("lists the account's own given-up enrichments and alerts only", async () => {
      const { res, html } = await browser.page("/settings/system");
      expect(res.status).toBe(200);
      expect(html).toContain('href="/settings/system" aria-current="page"');
      expect(html).toContain(`href="/customers/${mine.customerId}"`);
      expect(html).toContain("ada@example.com");
      expect(html).toContain("pdl: HTTP 503");
      expect(html).toContain("HTTP 410 channel_is_archived");
      expect(html).toContain(`name="id" value="${mine.alertId}"`);
      expect(html).not.toContain("grace@example.com");
      expect(html).not.toContain(theirs);
    });

    it("refuses a retry without the CSRF token", async () => {
      const res = await browser.post("/settings/system/retry", {
        kind: "enrichment",
        id: mine.customerId,
      });
      expect(res.status).toBe(403);
      expect(await status(mine.customerId)).toBe("failed");
    });

    it("does not retry another account's enrichment", async () => {
      const res = await browser.submit("/settings/system", "/settings/system/retry", {
        kind: "enrichment",
        id: theirs,
      });
      expect(res.status).toBe(404);
      expect(await status(theirs)).toBe("failed");
    });

    it("retries an enrichment and an alert: due again, pending again", async () => {
      const res = await browser.submit("/settings/system", "/settings/system/retry", {
        kind: "enrichment",
        id: mine.customerId,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/settings/system?notice=enrichment-retried");
      expect(await status(mine.customerId)).toBe("pending");
      const job = await app.deps.db.kysely
        .selectFrom("jobs")
        .select(["attempts", "last_error", "locked_by"])
        .where("job_key", "=", `enrich-customer:${mine.customerId}`)
        .executeTakeFirstOrThrow();
      expect(job).toEqual({ attempts: 0, last_error: null, locked_by: null });

      const alert = await browser.submit("/settings/system", "/settings/system/retry", {
        kind: "alert",
        id: mine.alertId,
      });
      expect(alert.status).toBe(303);
      const row = await app.deps.db.kysely
        .selectFrom("alerts")
        .select("status")
        .where("id", "=", mine.alertId)
        .executeTakeFirstOrThrow();
      expect(row.status).toBe("pending");

      const { html } = await browser.page("/settings/system?notice=alert-retried");
      expect(html).toContain("The alert is being delivered again now.");
      expect(html).toContain("None. Every customer's enrichment completed or is still running.");
      expect(html).toContain("None. Every VIP alert was delivered or is still being tried.");
      // Retrying again: nothing has given up any more.
      const again = await browser.submit("/settings/system", "/settings/system/retry", {
        kind: "alert",
        id: mine.alertId,
      });
      expect(again.status).toBe(404);
    });
  });
}
