/**
 * Verdicts in a real browser (Chromium): "Right" / "Not a VIP" on the customer page and in the
 * alert log, the precision beside the threshold on Settings → Alerts, and the page a chat
 * alert's link opens, each passing axe's WCAG A/AA rules at desktop and phone widths.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { updateAccount } from "../../src/features/accounts/update-account.js";
import type { FakeChatServer } from "../fakes/chat-server.js";
import { sqliteEngine } from "../support/databases.js";
import { waitFor } from "../support/job-deps.js";
import { signInNewAccount } from "../support/sign-in.js";
import type { TestApp } from "../support/test-app.js";
import { axeViolations, expectAxeCleanAtBothWidths } from "./axe.js";
import {
  type ChromiumSession,
  chromiumAvailable,
  DESKTOP,
  launchChromium,
  PHONE,
} from "./chromium.js";
import { TEST_PASSWORD } from "./http-browser.js";
import { type PipelineApp, startPipelineApp } from "./pipeline-app.js";

describe.skipIf(!chromiumAvailable)("verdict pages in a browser", () => {
  let pipeline: PipelineApp;
  let app: TestApp;
  let chat: FakeChatServer;
  let chrome: ChromiumSession;

  beforeAll(async () => {
    [pipeline, chrome] = await Promise.all([startPipelineApp(sqliteEngine), launchChromium()]);
    ({ app, chat } = pipeline);
  });
  afterAll(async () => {
    await chrome?.close();
    await pipeline?.close();
  });

  const axeAtBothWidths = (what: string) => expectAxeCleanAtBothWidths(chrome.page, what);

  it("records verdicts from the customer page, the alert log and a chat link, accessibly", async () => {
    const { email, accountId, apiKey } = await signInNewAccount(app, { storeName: "Atelier" });
    await updateAccount(app.deps.db.kysely, accountId, {
      vipThreshold: 70,
      channels: { slack_webhook_url: chat.webhookUrl },
    });
    const res = await app.submit(apiKey, {
      email: "ada.lovelace@analytical.example",
      firstName: "Ada",
      lastName: "Lovelace",
      order: { id: "a-1", number: "#a-1", total: "1500.00", currency: "USD" },
    });
    const { customerId } = (await res.json()) as { customerId: string };
    await waitFor(
      "chat alert",
      async () => chat.requests.some((r) => JSON.stringify(r.body).includes(customerId)),
      20_000,
    );

    const { page } = chrome;
    await page.goto(`${app.url}/login`);
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(TEST_PASSWORD);
    await page.getByRole("button", { name: "Log in" }).click();
    await page.waitForURL((url) => !url.pathname.startsWith("/login"));

    // The customer page: the question, no verdict yet, two buttons.
    await page.goto(`${app.url}/customers/${customerId}`);
    const panel = page.getByRole("region", { name: "Is this customer a VIP?" });
    expect(await panel.textContent()).toContain("No verdict yet");
    await axeAtBothWidths("the customer page");
    await panel.getByRole("button", { name: /^Not a VIP/ }).click();
    await page.waitForURL(`${app.url}/customers/${customerId}`);
    expect(await panel.textContent()).toMatch(/Not a VIP\s+by you in the dashboard/);
    expect(
      await panel.getByRole("button", { name: /^Not a VIP/ }).getAttribute("aria-pressed"),
    ).toBe("true");

    // The alert log: the verdict on the row, and a change of mind from there.
    await page.goto(`${app.url}/alerts`);
    await axeAtBothWidths("the alert log");
    const row = page.getByRole("row", { name: /Ada Lovelace/ });
    expect(await row.textContent()).toContain("Not a VIP");
    await row.getByRole("button", { name: /^Right/ }).click();
    await page.waitForURL(`${app.url}/alerts`);
    expect(await page.getByRole("row", { name: /Ada Lovelace/ }).textContent()).toMatch(
      /Right\s+by you in the dashboard/,
    );

    // Settings → Alerts: precision beside the threshold.
    await page.goto(`${app.url}/settings/alerts`);
    const precision = page.getByRole("region", { name: "Precision from your verdicts" });
    expect(await precision.textContent()).toContain(
      "Precision at 70: 1 right of 1 judged (100 %, 95 % interval 21–100 %)",
    );
    expect(await precision.textContent()).toContain(
      "Give at least 20 verdicts to get a suggested threshold (1 so far).",
    );
    await axeAtBothWidths("Settings → Alerts");

    // The chat's "Not a VIP" link, opened in a browser signed out: a page, then its button.
    const body = chat.requests.find((r) => JSON.stringify(r.body).includes(customerId))?.body as {
      blocks: Array<{ type: string; elements?: Array<{ text: { text: string }; url?: string }> }>;
    };
    const wrong = body.blocks
      .find((b) => b.type === "actions")
      ?.elements?.find((e) => e.text.text === "Not a VIP")?.url;
    const path = new URL(wrong ?? "").pathname + new URL(wrong ?? "").search;
    const visitor = await page.context().browser()?.newContext();
    if (!visitor) throw new Error("no browser");
    const reader = await visitor.newPage();
    await reader.goto(`${app.url}${path}`);
    for (const size of [DESKTOP, PHONE]) {
      await reader.setViewportSize(size);
      expect(await axeViolations(reader), `the link page at ${size.width}px`).toEqual([]);
    }
    await reader.getByRole("heading", { name: "Record that Ada L. is not a VIP?" }).waitFor();
    await reader.getByRole("button", { name: "Record: Not a VIP" }).click();
    await reader.getByRole("heading", { name: "Recorded: Not a VIP (Ada L.)" }).waitFor();
    expect(await axeViolations(reader), "the recorded page").toEqual([]);
    await visitor.close();
    await page.goto(`${app.url}/customers/${customerId}`);
    expect(await panel.textContent()).toMatch(/Not a VIP\s+from the chat alert/);
  });
});
