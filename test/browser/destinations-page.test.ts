/**
 * Settings → Integrations → Destinations in a real browser (Chromium): a merchant adds a signed
 * webhook through the form (a refused URL comes back as an alert), copies the secret shown once,
 * sends a test that a Standard Webhooks library verifies, and opens the delivery log; a webhook
 * its receiver disabled (410 Gone) says so and is enabled again with its button; the pages pass
 * axe's WCAG A/AA rules.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/features/accounts/create-account.js";
import { hashPassword } from "../../src/features/accounts/password.js";
import { type FakeWebhookReceiver, startWebhookReceiver } from "../fakes/webhook-receiver.js";
import { sqliteEngine } from "../support/databases.js";
import { STORE_SYNC_ENV } from "../support/store-sync.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { axeViolations } from "./axe.js";
import {
  type ChromiumSession,
  chromiumAvailable,
  launchChromium,
  screenshotBothWidths,
} from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";

describe.skipIf(!chromiumAvailable)("the Destinations page in a browser", () => {
  let app: TestApp;
  let receiver: FakeWebhookReceiver;
  let chrome: ChromiumSession;

  beforeAll(async () => {
    [app, receiver, chrome] = await Promise.all([
      startTestApp(sqliteEngine, { env: STORE_SYNC_ENV }),
      startWebhookReceiver(),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await chrome?.close();
    await app?.close();
    await receiver?.close();
  });

  it("adds a webhook, shows its secret once, tests it, and passes axe", async () => {
    const email = uniqueEmail("destinations");
    await createAccount(
      app.deps.db.kysely,
      { name: "Northwind", ownerEmail: email, passwordHash: await hashPassword(TEST_PASSWORD) },
      app.deps.clock.now(),
    );
    const { page } = chrome;
    await page.goto(`${app.url}/login`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));

    await page.goto(`${app.url}/settings/integrations`);
    await page.getByRole("navigation", { name: "Integrations" }).getByText("Destinations").click();
    await page.waitForURL(/\/settings\/integrations\/destinations$/);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Receiver URL").fill("ftp://example.com/hook");
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toContain("must use https or http");

    await page.getByLabel("Receiver URL").fill(receiver.url);
    await page.getByRole("button", { name: "Add webhook" }).click();
    await expect.poll(() => page.locator("code.secret").count()).toBe(1);
    const secret = (await page.locator("code.secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${app.url}/settings/integrations/destinations`);
    expect(await page.content()).not.toContain(secret);
    const row = page.getByRole("row", { name: new RegExp(receiver.url.replace(/[.:/]/g, "\\$&")) });
    await row.getByRole("button", { name: "Send a test" }).click();
    await expect
      .poll(() => page.getByRole("status").first().textContent())
      .toContain("Test delivered (204)");
    const [hook] = receiver.requests;
    expect(new Webhook(secret).verify(hook?.raw ?? "", hook?.headers ?? {})).toMatchObject({
      type: "velvet.test",
    });
    await screenshotBothWidths(page, "21-destinations");

    await page.getByRole("link", { name: receiver.url }).click();
    await page.waitForURL(/\/settings\/integrations\/destinations\/[0-9a-f-]{36}$/);
    expect(await page.content()).toContain("Nothing was sent here yet.");
    expect(await axeViolations(page)).toEqual([]);

    // As a delivery answered 410 Gone leaves it (webhook-gone-flow.test.ts sends that one).
    const destinationId = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    await app.deps.db.kysely
      .updateTable("destinations")
      .set({ disabled_at: Date.parse("2026-11-20T10:00:00Z"), disabled_reason: "410 gone" })
      .where("id", "=", destinationId)
      .execute();
    await page.goto(`${app.url}/settings/integrations/destinations`);
    expect(await page.content()).toContain("the receiver answered <code>410 gone</code>");
    expect(await axeViolations(page)).toEqual([]);
    await row.getByRole("button", { name: "Enable again" }).click();
    await expect
      .poll(() => page.getByRole("status").first().textContent())
      .toContain("Destination enabled");
    expect(await row.getByRole("button", { name: "Enable again" }).count()).toBe(0);
  });
});
