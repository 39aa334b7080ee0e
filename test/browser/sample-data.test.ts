/**
 * "Try it with sample orders" in a real browser (Chromium): a new merchant's empty Overview
 * offers the sample history; after one click the Overview says the data is sample, the worker
 * scores it, a VIP appears with its explanation, and "Remove sample data" asks first, then
 * empties the store again. Each page passes axe's WCAG A/AA rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/features/accounts/create-account.js";
import { hashPassword } from "../../src/features/accounts/password.js";
import { sqliteEngine } from "../support/databases.js";
import { waitFor } from "../support/job-deps.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { axeViolations } from "./axe.js";
import { type ChromiumSession, chromiumAvailable, launchChromium } from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";

describe.skipIf(!chromiumAvailable)("sample orders in a browser", { timeout: 120_000 }, () => {
  let app: TestApp;
  let chrome: ChromiumSession;

  beforeAll(async () => {
    [app, chrome] = await Promise.all([
      startTestApp(sqliteEngine, { worker: true }),
      launchChromium(),
    ]);
  });
  afterAll(async () => {
    await chrome?.close();
    await app?.close();
  });

  it("adds sample orders from the empty Overview, shows a VIP and why, and removes them", async () => {
    const email = uniqueEmail("sample");
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

    expect(await page.getByRole("heading", { name: "Get started in three steps" }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole("button", { name: "Try it with sample orders" }).click();
    await page.waitForURL(/notice=sample-added/);
    expect(await page.locator("#sample-data").textContent()).toContain(
      "60 generated customers at example addresses, not billed and never alerted",
    );
    expect(await axeViolations(page)).toEqual([]);

    await waitFor(
      "a sample VIP",
      async () =>
        (await app.deps.db.kysely
          .selectFrom("enrichments")
          .select("customer_id")
          .where("vip", "=", 1)
          .executeTakeFirst()) !== undefined,
      60_000,
    );
    await page.goto(`${app.url}/customers?vip=1&sort=score`);
    const first = page.locator("td.primary-cell a").first();
    expect(await page.locator("td.primary-cell").first().textContent()).toContain("Sample");
    await first.click();
    await page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
    const body = (await page.locator("main").textContent()) ?? "";
    expect(body).toContain("VIP");
    expect(body).toContain("Sample");
    // Which sample VIP sorts first depends on when the re-judge reaches each one (several end at
    // 100), so the page is checked for its explanation, not for one customer's figures.
    expect(body).toContain("Why this score");
    expect(body).toMatch(/Total\s*\d+/);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${app.url}/settings/billing`);
    expect(await page.locator("main").textContent()).toContain("$0.00");

    // Removing asks first, naming what goes; dismissed, nothing is removed.
    await page.goto(`${app.url}/`);
    const asked: string[] = [];
    page.once("dialog", (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole("button", { name: "Remove sample data" }).click();
    await waitFor("the confirmation", async () => asked.length === 1, 5_000);
    expect(asked[0]).toContain("Remove the sample data? Its 60 generated customers");
    expect(page.url()).not.toContain("notice=sample-removed");
    expect(await app.deps.db.kysely.selectFrom("customers").select("id").execute()).toHaveLength(
      60,
    );
    page.once("dialog", (dialog) => void dialog.accept());
    await page.getByRole("button", { name: "Remove sample data" }).click();
    await page.waitForURL(/notice=sample-removed/);
    expect(await page.locator("#sample-data").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Try it with sample orders" }).count()).toBe(1);
    const left = await app.deps.db.kysely.selectFrom("customers").select("id").execute();
    expect(left).toEqual([]);
  });
});
