/**
 * Screenshots of every main page at desktop and phone widths, of a store with a month of
 * data, saved under screenshots/ (git-ignored) for people to look at. Each page is also checked
 * for what must be on it, for horizontal overflow on the phone, and with axe-core (WCAG 2.1 A
 * and AA) at both widths.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteEngine } from "../support/databases.js";
import { startSmtpServer, type TestSmtpServer } from "../support/smtp-server.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { axeViolations } from "./axe.js";
import {
  type ChromiumSession,
  chromiumAvailable,
  DESKTOP,
  launchChromium,
  PHONE,
  screenshotBothWidths,
  visible,
} from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";
import { seedStore } from "./seed-store.js";

describe.skipIf(!chromiumAvailable)("dashboard screenshots", () => {
  let app: TestApp;
  let smtp: TestSmtpServer;
  let chrome: ChromiumSession;
  let vipId: string;

  beforeAll(async () => {
    // A server that can send e-mail, so Settings → Alerts shows the store as it is set up.
    smtp = await startSmtpServer();
    app = await startTestApp(sqliteEngine, {
      env: { PUBLIC_BASE_URL: "https://velvet.example.com", SMTP_URL: smtp.url },
    });
    chrome = await launchChromium();
    const { page } = chrome;
    await page.goto(`${app.url}/signup`);
    await page.getByLabel("Store name").fill("Northwind Outfitters");
    await page.getByLabel("E-mail").fill(uniqueEmail("shots"));
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await screenshotBothWidths(page, "01-signup");
    expect(await axeViolations(page), "/signup").toEqual([]);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.waitForURL(/\/settings\/integrations/);
    await screenshotBothWidths(page, "02-api-access-new-key");
    expect(await axeViolations(page), "the new key").toEqual([]);
    const account = await app.deps.db.kysely
      .selectFrom("stores")
      .select(["id", "account_id"])
      .executeTakeFirstOrThrow();
    const seeded = await seedStore(app.deps.db.kysely, {
      accountId: account.account_id,
      storeId: account.id,
      customers: 400,
      days: 60,
      now: app.deps.clock.now(),
    });
    vipId = seeded.vipIds[0] as string;
    // The channels the seeded alerts went to, set in the form as a merchant would.
    await page.goto(`${app.url}/settings/alerts`);
    await page
      .getByLabel("Incoming webhook URL")
      .fill("https://hooks.slack.com/services/T024BE7LD/B01N4ABCDEF/p9XnQw2ZrT8vLm5sHc1Jk3Yq");
    await page.getByLabel("Send alerts to").fill("team@northwind.io\nsales@northwind.io");
    await page.getByRole("button", { name: "Save alert settings" }).click();
    await page.getByText("Alert settings saved.").waitFor();
    // The team confirms its address from the mailed link; sales has not yet.
    const mail = smtp.messages.find((m) => m.rcptTo.includes("team@northwind.io"));
    const link = /\/alert-emails\/confirm\?token=[\w-]{43}/.exec(mail?.parsed.text ?? "")?.[0];
    await page.goto(`${app.url}${link}`);
    await page.getByRole("button", { name: "Confirm this address" }).click();
    await page.getByText("now receives VIP alerts").waitFor();
  });

  afterAll(async () => {
    await chrome?.close();
    await app?.close();
    await smtp?.close();
  });

  const pages: Array<[string, string, string[]]> = [
    ["03-overview", "/", ["Latest VIPs", "No enrichment provider is configured on this server."]],
    ["04-customers", "/customers", ["Customers"]],
    ["05-customers-vip-by-score", "/customers?vip=1&sort=score", ["VIPs only"]],
    ["07-alerts", "/alerts", ["Delivery"]],
    ["08-settings-api-access", "/settings/integrations", ["API keys"]],
    [
      "09-settings-alerts",
      "/settings/alerts",
      [
        "hooks.slack.com/…k3Yq",
        "Choosing a threshold",
        "Above 70 (current)",
        "Send a test e-mail",
        "Awaiting confirmation",
      ],
    ],
    ["10-settings-billing", "/settings/billing", ["Last 12 months", "Unit price"]],
    ["10b-settings-system", "/settings/system", ["Alerts that gave up"]],
    ["12-settings-audit-log", "/settings/audit", ["Customers are named by id only"]],
    ["13-settings-account", "/settings/account", ["Close this account"]],
    ["11-not-found", "/no-such-page", ["Page not found"]],
  ];

  for (const [name, path, texts] of pages) {
    it(`renders ${path}`, async () => {
      const { page } = chrome;
      await page.goto(`${app.url}${path}`);
      for (const text of texts)
        expect(await visible(page.getByText(text).first()), text).toBe(true);
      await screenshotBothWidths(page, name);
      await page.setViewportSize(PHONE);
      const overflow = Number(
        await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
      );
      expect(overflow, `${path} scrolls sideways on a phone`).toBeLessThanOrEqual(0);
      expect(await axeViolations(page), `${path} on a phone`).toEqual([]);
      await page.setViewportSize(DESKTOP);
      expect(await axeViolations(page), `${path} on a desktop`).toEqual([]);
    });
  }

  it("renders a VIP's page", async () => {
    const { page } = chrome;
    await page.goto(`${app.url}/customers/${vipId}`);
    expect(await visible(page.getByRole("heading", { name: "Why this score" }))).toBe(true);
    await screenshotBothWidths(page, "06-customer-vip");
    expect(await axeViolations(page)).toEqual([]);
  });

  it("renders the confirmation before a customer's data is deleted", async () => {
    const { page } = chrome;
    await page.goto(`${app.url}/customers/${vipId}`);
    await page.getByRole("link", { name: "Delete this customer's data" }).click();
    expect(await visible(page.getByRole("heading", { name: "What is deleted" }))).toBe(true);
    await screenshotBothWidths(page, "14-customer-delete-confirmation");
    expect(await axeViolations(page)).toEqual([]);
    await page.setViewportSize(PHONE);
    const overflow = Number(
      await page.evaluate("document.documentElement.scrollWidth - window.innerWidth"),
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
