/**
 * Settings → Billing in a real browser (Chromium): the provider costs beside Velvet's own
 * charge, at desktop and phone widths, passing axe's WCAG A/AA rules.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/features/accounts/create-account.js";
import { hashPassword } from "../../src/features/accounts/password.js";
import { monthOf } from "../../src/features/billing/get-usage.js";
import { reserveBudget } from "../../src/features/billing/monthly-budget.js";
import { recordProviderSpend } from "../../src/features/billing/provider-spend.js";
import { sqliteEngine } from "../support/databases.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { axeViolations } from "./axe.js";
import {
  type ChromiumSession,
  chromiumAvailable,
  DESKTOP,
  launchChromium,
  PHONE,
} from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";

describe.skipIf(!chromiumAvailable)("the Billing page in a browser", () => {
  let app: TestApp;
  let chrome: ChromiumSession;

  beforeAll(async () => {
    [app, chrome] = await Promise.all([startTestApp(sqliteEngine), launchChromium()]);
  });
  afterAll(async () => {
    await chrome?.close();
    await app?.close();
  });

  it("shows what each provider billed this month, and passes axe at both widths", async () => {
    const email = uniqueEmail("billing");
    const now = app.deps.clock.now();
    const { accountId } = await createAccount(
      app.deps.db.kysely,
      { name: "Northwind", ownerEmail: email, passwordHash: await hashPassword(TEST_PASSWORD) },
      now,
    );
    await recordProviderSpend(
      app.deps.db.kysely,
      accountId,
      [
        { provider: "pdl", lookups: 3, unitPriceUsd: "0.28" },
        { provider: "fullcontact", lookups: 2, unitPriceUsd: "0.1" },
      ],
      now,
    );
    const { page } = chrome;
    await page.goto(`${app.url}/login`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));

    await page.goto(`${app.url}/settings/billing`);
    const table = page.getByRole("table", { name: /Billed lookups and their cost per provider/ });
    const pdl = table.getByRole("row", { name: /People Data Labs/ });
    expect(await pdl.textContent()).toMatch(/3\s*\$0\.84/);
    const total = table.getByRole("row", { name: /All providers/ });
    expect(await total.textContent()).toMatch(/5\s*\$1\.04/);
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      expect(await axeViolations(page), `${size.width}px`).toEqual([]);
    }
    await page.setViewportSize(DESKTOP);

    // The owner sets a budget; a wrong amount is refused next to the field.
    await page.getByLabel("Monthly budget (USD)").fill("ten dollars");
    await page.getByRole("button", { name: "Save billing settings" }).click();
    // The page itself answers a refused form (no redirect), what was typed kept.
    await page.locator("#f-budget-error").waitFor();
    expect(await page.getByLabel("Monthly budget (USD)").inputValue()).toBe("ten dollars");
    expect(await page.locator("#f-budget-error").textContent()).toContain("such as 50");
    expect(await axeViolations(page), "the refused budget").toEqual([]);
    await page.getByLabel("Monthly budget (USD)").fill("1.20");
    await page.getByRole("button", { name: "Save billing settings" }).click();
    await page.getByText("$1.04 of $1.20 spent this month").waitFor();
    expect(await page.getByLabel("Monthly budget (USD)").inputValue()).toBe("1.20");
    const budgetPanel = page.getByRole("region", { name: "Monthly lookup budget" });
    expect(await budgetPanel.textContent()).toContain("$1.04 of $1.20 spent this month (86 %)");

    // A lookup reserves the last $0.16 and spends it: the budget is reached, and the banner is
    // on every page until the budget changes.
    const held = await reserveBudget(app.deps.db.kysely, accountId, monthOf(now), "1.20", 160_000);
    expect(held).not.toBeNull();
    await recordProviderSpend(
      app.deps.db.kysely,
      accountId,
      [{ provider: "fullcontact", lookups: 1, unitPriceUsd: "0.16" }],
      now,
      held,
    );
    await page.goto(`${app.url}/`);
    expect(await page.locator("#budget-notice").textContent()).toContain(
      "paid provider lookups have stopped",
    );
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      expect(await axeViolations(page), `banner at ${size.width}px`).toEqual([]);
    }
  });
});
