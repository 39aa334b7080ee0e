/**
 * Settings → Integrations → Stores in a real browser (Chromium): a merchant connects a Shopify
 * shop through the form (after a refusal and a preview of its cost, each of which keeps the shop
 * and asks for the token again) with the app's API secret key, so the shop's order webhooks are
 * subscribed at Velvet's public address and its row says "Real time"; the worker's sync breaks
 * on a revoked token, and the page shows it;
 * the page passes axe's WCAG A/AA rules with a connection listed and with a refused form.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/features/accounts/create-account.js";
import { hashPassword } from "../../src/features/accounts/password.js";
import { type FakeShopify, shopifyOrder, startFakeShopify } from "../fakes/shopify-admin.js";
import { sqliteEngine } from "../support/databases.js";
import { runSync, STORE_SYNC_ENV } from "../support/store-sync.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { axeViolations } from "./axe.js";
import {
  type ChromiumSession,
  chromiumAvailable,
  launchChromium,
  screenshotBothWidths,
} from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";

describe.skipIf(!chromiumAvailable)("the Stores page in a browser", () => {
  let app: TestApp;
  let shopify: FakeShopify;
  let chrome: ChromiumSession;

  beforeAll(async () => {
    [app, shopify, chrome] = await Promise.all([
      startTestApp(sqliteEngine, { env: STORE_SYNC_ENV, publicUrl: true }),
      startFakeShopify(),
      launchChromium(),
    ]);
    shopify.orders.push(shopifyOrder("ada@navy-systems.com", new Date(Date.now() - 86_400_000)));
  });
  afterAll(async () => {
    await chrome?.close();
    await app?.close();
    await shopify?.close();
  });

  it("connects a shop, shows it broken after a revoked token, and passes axe", async () => {
    const email = uniqueEmail("stores");
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
    await page.getByRole("navigation", { name: "Integrations" }).getByText("Stores").click();
    await page.waitForURL(/\/settings\/integrations\/stores$/);

    // A wrong token: the form comes back with the platform's answer, announced as an alert.
    await page.getByLabel("Shop domain").fill(shopify.shop);
    await page.getByLabel("Admin API access token").fill("shpat_wrong");
    await page.getByRole("button", { name: "Connect Shopify" }).click();
    await expect
      .poll(() => page.getByRole("alert").first().textContent())
      .toContain("Shopify did not accept the connection");
    expect(await axeViolations(page)).toEqual([]);

    // The shop domain is kept; the token was not sent back, and its field has the focus.
    expect(await page.getByLabel("Shop domain").inputValue()).toBe(shopify.shop);
    expect(await page.getByLabel("Admin API access token").inputValue()).toBe("");
    expect(await page.locator("#f-token:focus").count()).toBe(1);
    expect(await page.content()).not.toContain("shpat_wrong");

    // Preview cost: the estimate under the form, the shop kept, the token asked for again.
    await page.getByLabel("Admin API access token").fill(shopify.token);
    await page.getByRole("button", { name: "Preview cost" }).first().click();
    await expect
      .poll(() => page.locator("#cost-preview-shopify").textContent())
      .toContain("Before connecting: nothing was saved.");
    expect(await page.locator("#cost-preview-shopify").textContent()).toContain("1 order.");
    expect(await page.getByLabel("Shop domain").inputValue()).toBe(shopify.shop);
    expect(await page.getByLabel("Admin API access token").inputValue()).toBe("");
    expect(await page.content()).not.toContain(shopify.token);
    expect(await page.content()).toContain("No store is connected yet.");
    expect(await axeViolations(page)).toEqual([]);

    await page.getByLabel("Admin API access token").fill(shopify.token);
    await page.getByLabel("With a token: the app's API secret key").fill(shopify.apiSecretKey);
    await page.getByRole("button", { name: "Connect Shopify" }).click();
    await page.waitForURL(/notice=connected$/);
    expect(await page.getByRole("status").first().textContent()).toContain(
      "new orders arrive as they are placed",
    );
    const row = page.getByRole("row", { name: new RegExp(shopify.shop.replace(/[.:/]/g, "\\$&")) });
    expect(await row.textContent()).toContain("Syncing");
    expect(await row.textContent()).toContain("Real time");
    expect(await row.textContent()).toContain("webhooks delivering (no delivery yet)");
    expect(shopify.subscriptions).toHaveLength(3);
    expect(await page.content()).not.toContain(shopify.apiSecretKey);

    const connection = await app.deps.db.kysely
      .selectFrom("store_connections")
      .select("id")
      .executeTakeFirstOrThrow();
    shopify.reply({ status: 401, body: '{"errors":"[API] Invalid API key or access token"}' });
    expect((await runSync(app.deps, connection.id)).kind).toBe("broken");
    await page.reload();
    expect(await row.textContent()).toContain("Broken");
    expect(await row.textContent()).toContain("refused the credentials (401");
    expect(await row.textContent()).toContain("no orders taken while broken");
    expect(await page.content()).not.toContain(shopify.token);
    expect(await axeViolations(page)).toEqual([]);
    await screenshotBothWidths(page, "20-stores");

    await row.getByRole("button", { name: /Resume/ }).click();
    await page.waitForURL(/notice=resumed/);
    expect(await row.textContent()).toContain("Syncing");
  });
});
