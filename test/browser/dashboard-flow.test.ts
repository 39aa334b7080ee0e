/**
 * The merchant's whole path in a real browser (Debian's Chromium), with nothing simulated
 * inside Velvet: sign up → generate a key → set the alert channels (and send a test message) →
 * orders sent with the key over HTTP → the in-process worker enriches them from the provider
 * fakes → the dashboard shows each customer's status, score against the threshold and reasons
 * → the VIP's alerts reach the fake Slack webhook and the real SMTP server, once each, and show
 * as delivered → a customer nobody knows is no VIP and alerts no one → their data is downloaded,
 * then deleted after a confirmation, and the audit log says so → revoke the key → 401.
 */
import fs from "node:fs";
import type { Locator } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../support/databases.js";
import { type ChromiumSession, chromiumAvailable, launchChromium, visible } from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";
import { type PipelineApp, reloadUntil, startPipelineApp } from "./pipeline-app.js";

const VIP = { email: "victoria.sterling@bigcorp.example", name: "Victoria Sterling" };
const PLAIN = { email: "joe.average@gmail.com", name: "Joe Average" };
const ALERT_EMAIL = "team@sterling.test";

/** The section of the page under the heading with this name. */
const section = (scope: Locator, heading: string) =>
  scope.locator("section", {
    has: scope.page().getByRole("heading", { name: heading, exact: true }),
  });
/** How many elements in `scope` read exactly `text`. */
const times = (scope: Locator, text: string) => scope.getByText(text, { exact: true }).count();

for (const engine of ENGINES) {
  describe.skipIf(!chromiumAvailable || !engine.available)(
    `the merchant's path in Chromium on ${engine.name}`,
    () => {
      let pipeline: PipelineApp;
      let chrome: ChromiumSession;
      let url: string;
      let key = "";
      let testMessages = 0;
      beforeAll(async () => {
        pipeline = await startPipelineApp(engine);
        url = pipeline.app.url;
        chrome = await launchChromium();
      });
      afterAll(async () => {
        await chrome?.close();
        await pipeline?.close();
      });

      const order = (email: string, name: string, id: string, total: string) => {
        const [firstName, lastName] = name.split(" ");
        return pipeline.app.submit(key, {
          email,
          firstName,
          lastName,
          order: { id, number: `#${id}`, total, currency: "USD" },
        });
      };
      const listRow = (name: string) => chrome.page.locator("tr", { hasText: name });

      it("signs up with the keyboard and generates a key, shown once and copyable", async () => {
        const { page, context } = chrome;
        await page.goto(`${url}/`);
        expect(page.url()).toBe(`${url}/login`);
        await page.getByRole("link", { name: "Create an account" }).click();
        await page.getByLabel("Store name").fill("Sterling Goods");
        await page.getByLabel("E-mail").fill(uniqueEmail("flow"));
        await page.getByLabel("Password").fill(TEST_PASSWORD);
        await page.keyboard.press("Enter");
        await page.waitForURL(/\/settings\/integrations\?welcome=1$/);
        expect(await visible(page.getByText("here is your first API key"))).toBe(true);

        await page.getByRole("button", { name: "Generate a new key" }).click();
        await page.waitForURL(`${url}/settings/integrations`);
        key = (await page.locator("#new-key").textContent())?.trim() ?? "";
        expect(key).toMatch(/^sk_live_[0-9A-Za-z]{38}$/);
        expect(await visible(page.getByText("it will not be shown again"))).toBe(true);
        await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: url });
        await page.getByRole("button", { name: "Copy key" }).click();
        expect(await page.evaluate("navigator.clipboard.readText()")).toBe(key);
        await page.reload();
        expect(await page.locator("#new-key").count()).toBe(0);
      });

      it("sets the alert channels and sends a test message to the chat webhook", async () => {
        const { page } = chrome;
        const { chat } = pipeline;
        await page.getByRole("link", { name: "Settings", exact: true }).click();
        await page.getByRole("navigation", { name: "Settings" }).getByText("Alerts").click();
        await page.getByLabel("Incoming webhook URL").fill(chat.webhookUrl);
        await page.getByLabel("Send alerts to").fill(ALERT_EMAIL);
        await page.getByRole("button", { name: "Save alert settings" }).click();
        expect(await visible(page.getByText("Alert settings saved."))).toBe(true);
        expect(await page.getByText("E-mail sending is not set up").count()).toBe(0);
        expect(await page.getByLabel("Send alerts to").inputValue()).toBe(ALERT_EMAIL);

        await page.getByRole("button", { name: "Send a test message" }).click();
        expect(await visible(page.getByText(/^Test message sent to http:\/\/127\.0\.0\.1/))).toBe(
          true,
        );
        expect(chat.requests).toHaveLength(1);
        expect(chat.requests[0]?.path).toBe(new URL(chat.webhookUrl).pathname);
        expect(JSON.stringify(chat.requests[0]?.body)).toContain(
          "Velvet test message for *Sterling Goods*",
        );
        chat.reply("channel_not_found");
        await page.getByRole("button", { name: "Send a test message" }).click();
        const refused = page.getByRole("alert").getByText(/could not be delivered \(HTTP 404\)/);
        expect(await visible(refused)).toBe(true);
        expect(chat.requests).toHaveLength(2);
        testMessages = chat.requests.length;

        // The address typed in the dashboard gets a confirmation link, and nothing else yet.
        expect(pipeline.smtp.received).toHaveLength(1);
        const confirmation = pipeline.smtp.messages[0];
        expect(confirmation?.rcptTo).toEqual([ALERT_EMAIL]);
        expect(confirmation?.parsed.subject).toContain("Confirm");
        expect(await visible(page.getByText("Awaiting confirmation").first())).toBe(true);
        const path = /\/alert-emails\/confirm\?token=[A-Za-z0-9_-]{43}/.exec(
          confirmation?.parsed.text ?? "",
        )?.[0];
        expect(path).toBeDefined();
        // Its reader opens the link and confirms.
        await page.goto(`${url}${path}`);
        await page.getByRole("button", { name: "Confirm this address" }).click();
        expect(await visible(page.getByText("now receives VIP alerts"))).toBe(true);
        await page.goto(`${url}/settings/alerts`);
        expect(await page.getByText("Awaiting confirmation").count()).toBe(0);
      });

      it("enriches a VIP sent with the key, shows why, and delivers one alert per channel", async () => {
        const { page } = chrome;
        const { chat, smtp, providers } = pipeline;
        const sent = await order(VIP.email, VIP.name, "5001", "1250.00");
        expect(sent.status).toBe(200);
        const { customerId } = (await sent.json()) as { customerId: string };

        await page.getByRole("link", { name: "Customers" }).first().click();
        const row = listRow(VIP.name);
        await reloadUntil(
          page,
          "the VIP enriched",
          async () => (await times(row, "Enriched")) === 1,
        );
        expect(await times(row, "VIP")).toBe(1);
        const score = Number(await row.locator('td[data-label="Score"]').textContent());
        expect(score).toBeGreaterThan(70);
        for (const fake of providers.all()) expect(fake.requestCount()).toBe(1);

        await row.getByRole("link", { name: VIP.name }).click();
        await page.waitForURL(`${url}/customers/${customerId}`);
        const main = page.locator("main");
        expect(await main.locator(".score").textContent()).toBe(String(score));
        expect(await visible(main.getByText("the score is above the threshold of 70"))).toBe(true);
        const why = section(main, "Why this score");
        const points = await why.locator('tbody td[data-label="Points"]').allTextContents();
        // Every point is explained: the lines add up to the score (a cap has its own line).
        expect(points.reduce((sum, p) => sum + Number(p), 0)).toBe(score);
        const seniority = why.locator("tr", { hasText: "Seniority" });
        expect(await seniority.getByText("C-level").count()).toBe(1);
        expect(await seniority.getByText("+35").count()).toBe(1);
        for (const label of ["Net worth", "Order value", "E-mail domain"])
          expect(await times(why, label), label).toBe(1);
        expect(await times(section(main, "Data sources"), "Matched")).toBe(4);

        const alerts = section(main, "Alerts");
        await reloadUntil(page, "both alerts delivered", async () => {
          return (await times(alerts, "Delivered")) === 2;
        });
        for (const target of ["Team chat", ALERT_EMAIL]) {
          const line = alerts.locator("tr", { hasText: target });
          expect(await times(line, "Delivered"), target).toBe(1);
        }

        await page.getByRole("link", { name: "Alerts", exact: true }).click();
        const logged = page.locator("tbody tr", { hasText: VIP.name });
        expect(await logged.count()).toBe(2);
        for (const channel of ["Team chat", "E-mail"]) {
          const line = logged.filter({ hasText: channel });
          expect(await times(line, "Delivered"), channel).toBe(1);
          expect(await line.getByText(`${score} / 70`).count(), channel).toBe(1);
        }

        // Exactly one message each, carrying the same reasons as the page.
        expect(chat.requests).toHaveLength(testMessages + 1);
        const message = JSON.stringify(chat.requests[testMessages]?.body);
        expect(message).toContain(VIP.name);
        expect(message).toContain("Seniority: C-level (+35)");
        expect(message).toContain(`/customers/${customerId}`);
        // The confirmation link, then exactly one alert.
        expect(smtp.received).toHaveLength(2);
        expect(smtp.messages[1]?.rcptTo).toEqual([ALERT_EMAIL]);
        expect(smtp.messages[1]?.parsed.subject).toContain(VIP.name);
        expect(smtp.messages[1]?.parsed.text).toContain("Seniority: C-level (+35)");
      });

      it("shows a customer nobody knows, with a small order, as no VIP, and alerts no one", async () => {
        const { page } = chrome;
        const { chat, smtp, providers } = pipeline;
        for (const fake of providers.all()) fake.setBehaviour(PLAIN.email, { kind: "not_found" });
        const sent = await order(PLAIN.email, PLAIN.name, "5002", "35.00");
        expect(sent.status).toBe(200);

        await page.getByRole("link", { name: "Customers" }).first().click();
        const row = listRow(PLAIN.name);
        await reloadUntil(page, "the customer enriched", async () => {
          return (await times(row, "Enriched")) === 1;
        });
        expect(await times(row, "VIP")).toBe(0);
        await row.getByRole("link", { name: PLAIN.name }).click();
        const main = page.locator("main");
        expect(Number(await main.locator(".score").textContent())).toBeLessThanOrEqual(70);
        expect(
          await visible(main.getByText("Not a VIP: the score is not above the threshold of 70.")),
        ).toBe(true);
        expect(await times(section(main, "Data sources"), "No match")).toBe(4);
        expect(await visible(main.getByText("No alerts: alerts are sent for VIPs only."))).toBe(
          true,
        );

        await page.getByRole("link", { name: "Alerts", exact: true }).click();
        expect(await page.locator("tbody tr", { hasText: PLAIN.name }).count()).toBe(0);
        expect(await page.locator("tbody tr").count()).toBe(2);
        expect(chat.requests).toHaveLength(testMessages + 1);
        // Still only the confirmation link and the VIP's alert.
        expect(smtp.received).toHaveLength(2);
      });

      it("downloads a customer's data, then deletes it after a confirmation naming what goes", async () => {
        const { page } = chrome;
        await page.getByRole("link", { name: "Customers" }).first().click();
        await listRow(PLAIN.name).getByRole("link", { name: PLAIN.name }).click();
        const [download] = await Promise.all([
          page.waitForEvent("download"),
          page.getByRole("button", { name: "Download data" }).click(),
        ]);
        expect(download.suggestedFilename()).toMatch(/^velvet-customer-[0-9a-f-]{36}\.json$/);
        const saved = await download.path();
        const doc = JSON.parse(fs.readFileSync(saved, "utf8")) as {
          customer: { email: string };
          orders: unknown[];
          providerAnswers: unknown[];
        };
        expect(doc.customer.email).toBe(PLAIN.email);
        expect(doc.orders).toHaveLength(1);
        expect(doc.providerAnswers).toHaveLength(4);

        await page.getByRole("link", { name: "Delete this customer's data" }).click();
        const main = page.locator("main");
        expect(
          await visible(main.getByText(`Their details: ${PLAIN.email}`, { exact: false })),
        ).toBe(true);
        expect(await visible(main.getByText("1 order", { exact: true }))).toBe(true);
        await page.getByRole("button", { name: "Delete this customer's data" }).click();
        await page.waitForURL(/\/customers\?notice=customer-erased$/);
        expect(await visible(page.getByText("The customer's data is deleted"))).toBe(true);
        expect(await listRow(PLAIN.name).count()).toBe(0);

        await page.goto(`${url}/settings/audit`);
        expect(await visible(page.getByText("Customer data erased"))).toBe(true);
        expect(await visible(page.getByText("Customer data exported"))).toBe(true);
        expect(await page.locator("main").getByText(PLAIN.email).count()).toBe(0);
      });

      it("revokes the key in the browser, and the API refuses it at once", async () => {
        const { page } = chrome;
        await page.getByRole("link", { name: "Settings", exact: true }).click();
        page.once("dialog", (dialog) => void dialog.accept());
        await page.getByRole("button", { name: `Revoke sk_live_…${key.slice(-4)}` }).click();
        expect(await visible(page.getByText("The key is revoked"))).toBe(true);
        const refused = await order(VIP.email, VIP.name, "5003", "99.00");
        expect(refused.status).toBe(401);
        expect(await refused.json()).toEqual({
          error: "Unauthorized",
          message: "Invalid or missing API key",
        });
      });
    },
  );
}
