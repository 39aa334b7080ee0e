/**
 * The merchant's whole path in a real browser (Debian's Chromium): sign up → generate a key →
 * send an order with it → the customer appears, with status and score → a VIP shows its
 * reasons and its alert → revoke the key → the API answers 401.
 *
 * Enrichment and alert delivery are simulated by writing their rows (test/browser/simulate.ts):
 * this test is about the dashboard; the worker's own tests cover the pipeline.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../support/databases.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type ChromiumSession, chromiumAvailable, launchChromium, visible } from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";
import { simulateAlert, simulateEnrichment, VIP_SIGNALS } from "./simulate.js";

for (const engine of ENGINES) {
  describe.skipIf(!chromiumAvailable || !engine.available)(
    `the merchant's path in Chromium on ${engine.name}`,
    () => {
      let app: TestApp;
      let chrome: ChromiumSession;
      beforeAll(async () => {
        app = await startTestApp(engine);
        chrome = await launchChromium();
      });
      afterAll(async () => {
        await chrome?.close();
        await app?.close();
      });

      it("signs up, gets a key, sees a VIP and its alert, and revokes the key", async () => {
        const { page, context } = chrome;
        const order = (key: string) =>
          fetch(`${app.url}/api/v1/orders`, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({
              email: "victoria@bigcorp.example",
              firstName: "Victoria",
              lastName: "Sterling",
              order: { id: "5001", number: "5001", total: "1250.00" },
            }),
          });

        // Sign up (keyboard only: labels lead to the fields, Enter submits).
        await page.goto(`${app.url}/`);
        expect(page.url()).toBe(`${app.url}/login`);
        await page.getByRole("link", { name: "Create an account" }).click();
        await page.getByLabel("Store name").fill("Sterling Goods");
        await page.getByLabel("E-mail").fill(uniqueEmail("flow"));
        await page.getByLabel("Password").fill(TEST_PASSWORD);
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/settings\/integrations\?welcome=1$/);
        expect(await visible(page.getByText("here is your first API key"))).toBe(true);

        // Generate a key: shown once, copyable.
        await page.getByRole("button", { name: "Generate a new key" }).click();
        await page.waitForURL(`${app.url}/settings/integrations`);
        const key = (await page.locator("#new-key").textContent())?.trim() ?? "";
        expect(key).toMatch(/^sk_live_[0-9A-Za-z]{38}$/);
        expect(await visible(page.getByText("it will not be shown again"))).toBe(true);
        await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: app.url });
        await page.getByRole("button", { name: "Copy key" }).click();
        expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);
        await page.reload();
        expect(await page.locator("#new-key").count()).toBe(0);

        // Send an order with it: the customer appears, pending.
        const sent = await order(key);
        expect(sent.status).toBe(200);
        const { customerId } = (await sent.json()) as { customerId: string };
        await page.getByRole("link", { name: "Customers" }).first().click();
        const row = page.locator("tr", { hasText: "Victoria Sterling" });
        expect(await visible(row)).toBe(true);
        expect(await row.getByText("Pending").count()).toBe(1);

        // Enrichment finds a VIP and the alert goes out (simulated rows).
        const db = app.deps.db.kysely;
        const { score, vip } = await simulateEnrichment(db, customerId, {
          signals: VIP_SIGNALS,
          profile: { title: "Chief Executive Officer", company: "BigCorp" },
        });
        expect(vip).toBe(true);
        const { accountId } = await db
          .selectFrom("customers")
          .innerJoin("stores", "stores.id", "customers.store_id")
          .select("stores.account_id as accountId")
          .where("customers.id", "=", customerId)
          .executeTakeFirstOrThrow();
        await simulateAlert(db, {
          accountId,
          customerId,
          channel: "chat",
          status: "delivered",
          target: "https://hooks.slack.com/…9xQz",
          score,
          attempts: [{ outcome: "delivered", statusCode: 200, error: null }],
        });
        await page.reload();
        expect(await row.getByText("Enriched").count()).toBe(1);
        expect(await row.getByText(String(score), { exact: true }).count()).toBe(1);
        expect(await row.getByText("VIP", { exact: true }).count()).toBe(1);

        // The VIP's page: the score against the threshold, the reasons, the alert.
        await row.getByRole("link", { name: "Victoria Sterling" }).click();
        await page.waitForURL(`${app.url}/customers/${customerId}`);
        expect(await visible(page.getByText("the score is above the threshold of 70"))).toBe(true);
        const reasons = page.locator("section", {
          has: page.getByRole("heading", { name: "Why this score" }),
        });
        for (const text of [
          "Seniority",
          "c_level",
          "+35",
          "Net worth (USD)",
          "+25",
          "Order value",
          "+22",
        ]) {
          expect(await reasons.getByText(text, { exact: true }).count(), text).toBeGreaterThan(0);
        }
        const alerts = page.locator("section", {
          has: page.getByRole("heading", { name: "Alerts" }),
        });
        expect(await alerts.getByText("Team chat").count()).toBe(1);
        expect(await alerts.getByText("Delivered", { exact: true }).count()).toBe(1);
        await page.getByRole("link", { name: "Alerts", exact: true }).click();
        expect(
          await visible(
            page
              .locator("tr", { hasText: "Victoria Sterling" })
              .getByText("Delivered", { exact: true }),
          ),
        ).toBe(true);

        // Revoke the key (confirming the prompt): the API refuses it at once.
        await page.getByRole("link", { name: "Settings", exact: true }).click();
        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByRole("button", { name: `Revoke sk_live_…${key.slice(-4)}` }).click();
        expect(await visible(page.getByText("The key is revoked"))).toBe(true);
        const refused = await order(key);
        expect(refused.status).toBe(401);
        expect(await refused.json()).toEqual({
          error: "Unauthorized",
          message: "Invalid or missing API key",
        });
      });
    },
  );
}
