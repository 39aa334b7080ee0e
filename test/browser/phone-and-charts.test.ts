/**
 * The dashboard at a phone's width and its charts, in a real browser (Chromium) on a store with
 * two months of data: every settings tab keeps the current tab in view at 390 px with a sign
 * that the strip scrolls; the operator's notice folds away from the Overview and stays whole on
 * System; Billing draws the budget and twelve months; the threshold chart's VIPs are in the
 * legend's VIP colour; precision month by month and readable axes. axe at 1280 and 390 px.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../src/features/accounts/create-account.js";
import { hashPassword } from "../../src/features/accounts/password.js";
import { cliActor } from "../../src/features/audit/audit-actor.js";
import { monthOf } from "../../src/features/billing/get-usage.js";
import { reserveBudget } from "../../src/features/billing/monthly-budget.js";
import { recordProviderSpend } from "../../src/features/billing/provider-spend.js";
import { recordVerdict } from "../../src/features/verdicts/record-verdict.js";
import { sqliteEngine } from "../support/databases.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { expectAxeCleanAtBothWidths } from "./axe.js";
import {
  type ChromiumSession,
  chromiumAvailable,
  DESKTOP,
  launchChromium,
  logInWithForm,
  PHONE,
} from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";
import { seedStore } from "./seed-store.js";

const SETTINGS_TABS: Array<[string, string]> = [
  ["/settings/integrations", "Integrations"],
  ["/settings/alerts", "Alerts"],
  ["/settings/billing", "Billing"],
  ["/settings/system", "System"],
  ["/settings/team", "Team"],
  ["/settings/profile", "Profile"],
  ["/settings/audit", "Audit log"],
  ["/settings/account", "Account"],
];

interface TabStrip {
  current: string;
  inView: boolean;
  scrolls: boolean;
  scrollLeft: number;
  background: string;
}

/** Where the settings strip's current tab is, read in the page (a string: no DOM types here). */
const TAB_STRIP = `(() => {
  const nav = document.querySelector("nav.subnav");
  const tab = nav.querySelector('[aria-current="page"]');
  const n = nav.getBoundingClientRect();
  const t = tab.getBoundingClientRect();
  return {
    current: tab.textContent.trim(),
    inView: t.left >= n.left - 0.5 && t.right <= n.right + 0.5 && t.left >= 0 && t.right <= window.innerWidth,
    scrolls: nav.scrollWidth > nav.clientWidth,
    scrollLeft: nav.scrollLeft,
    background: getComputedStyle(nav).backgroundImage,
  };
})()`;

describe.skipIf(!chromiumAvailable)("the dashboard on a phone, and its charts", () => {
  let app: TestApp;
  let chrome: ChromiumSession;

  beforeAll(async () => {
    [app, chrome] = await Promise.all([startTestApp(sqliteEngine), launchChromium(PHONE)]);
    const db = app.deps.db.kysely;
    const now = app.deps.clock.now();
    const email = uniqueEmail("phone");
    const { accountId, storeId } = await createAccount(
      db,
      { name: "Northwind", ownerEmail: email, passwordHash: await hashPassword(TEST_PASSWORD) },
      now,
    );
    const seeded = await seedStore(db, { accountId, storeId, customers: 120, days: 60, now });
    // Two customers either side of a threshold of 75, so the threshold cuts the 70–79 band.
    const [low, high] = seeded.customerIds.filter((id) => !seeded.vipIds.includes(id));
    for (const [id, score] of [
      [low, 72],
      [high, 78],
    ] as const)
      await db
        .updateTable("enrichments")
        .set({ score, vip: score > 75 ? 1 : 0, enriched_at: now })
        .where("customer_id", "=", id ?? "")
        .execute();
    // Verdicts on the VIPs: 6 right, 2 wrong.
    for (const [i, id] of seeded.vipIds.slice(0, 8).entries()) {
      const outcome = await recordVerdict(
        db,
        {
          accountId,
          customerId: id,
          verdict: i < 6 ? "right" : "wrong",
          source: "cli",
          givenBy: null,
          actor: cliActor("test"),
        },
        now,
      );
      expect(outcome.kind).toBe("recorded");
    }
    await db
      .updateTable("accounts")
      .set({ vip_threshold: 75, monthly_budget_usd: "2.00" })
      .where("id", "=", accountId)
      .execute();
    // The month's budget: $1.40 spent, $0.10 held by a lookup in progress.
    await recordProviderSpend(
      db,
      accountId,
      [{ provider: "pdl", lookups: 5, unitPriceUsd: "0.28" }],
      now,
    );
    expect(await reserveBudget(db, accountId, monthOf(now), "2.00", 100_000)).not.toBeNull();

    await logInWithForm(chrome.page, app.url, email, TEST_PASSWORD);
  });

  afterAll(async () => {
    await chrome?.close();
    await app?.close();
  });

  const axeAtBothWidths = (what: string) => expectAxeCleanAtBothWidths(chrome.page, what, PHONE);

  it("keeps the current settings tab in view at 390 px, with a shadow where the strip scrolls", async () => {
    const { page } = chrome;
    let scrolled = 0;
    for (const [path, label] of SETTINGS_TABS) {
      await page.setViewportSize(PHONE);
      await page.goto(`${app.url}${path}`);
      const strip = (await page.evaluate(TAB_STRIP)) as TabStrip;
      expect(strip.current, path).toBe(label);
      expect(strip.inView, `${label} in view at 390px`).toBe(true);
      expect(strip.scrolls, "eight tabs do not fit a phone").toBe(true);
      expect(strip.background, "the edge shadow").toContain("radial-gradient");
      if (strip.scrollLeft > 0) scrolled++;
      await axeAtBothWidths(path);
    }
    // The tabs past the first screen were scrolled to (by the page's script, at load).
    expect(scrolled).toBeGreaterThanOrEqual(3);
    // And again when the screen changes size (a phone turned, a window narrowed).
    await page.setViewportSize(DESKTOP);
    await page.setViewportSize(PHONE);
    // The resize event comes after the new size: wait for it (a timeout fails the test).
    await page.waitForFunction(`(${TAB_STRIP}).inView`, undefined, { timeout: 5_000 });
    expect(((await page.evaluate(TAB_STRIP)) as TabStrip).current).toBe("Account");
  });

  it("folds the operator's notice away from the Overview, remembered, and keeps it whole on System", async () => {
    const { page } = chrome;
    await page.goto(`${app.url}/`);
    const notice = page.locator("#no-providers");
    expect(await notice.textContent()).toContain("No enrichment provider is configured");
    expect(await notice.textContent()).not.toContain("PDL_API_KEY");
    await axeAtBothWidths("the Overview with the notice");
    await page.getByRole("button", { name: "Fold this notice away" }).click();
    await page.waitForURL(`${app.url}/`);
    await page.reload();
    const folded = page.locator("details#no-providers");
    expect(await folded.getAttribute("open")).toBeNull();
    // Folded, the first screen of a phone shows the store's numbers.
    const box = await page.locator(".grid .stat").first().boundingBox();
    expect(box?.y ?? Number.POSITIVE_INFINITY).toBeLessThan(PHONE.height / 2);
    await axeAtBothWidths("the Overview with the notice folded");
    // Still readable on demand.
    await folded.locator("summary").click();
    expect(await folded.textContent()).toContain("reach at most");
    await page.goto(`${app.url}/settings/system`);
    const server = page.getByRole("region", { name: "This server" });
    expect(await server.textContent()).toContain("GRAVATAR_ENABLED=true");
    // Open again for good.
    await page.goto(`${app.url}/`);
    await page.locator("details#no-providers summary").click();
    await page.getByRole("button", { name: "Keep this notice open" }).click();
    await page.waitForURL(`${app.url}/`);
    expect(await page.locator("div#no-providers").isVisible()).toBe(true);
  });

  it("draws the Overview's axis with evenly spaced, readable ticks", async () => {
    const { page } = chrome;
    await page.goto(`${app.url}/?period=30`);
    const ticks = (await page.evaluate(
      `[...document.querySelectorAll(".chart text.y-tick")].map((t) => Number(t.textContent.replace(/,/g, "")))`,
    )) as number[];
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks[0]).toBe(0);
    const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
    expect(ticks.every((t, i) => t === i * step)).toBe(true);
    expect(String(step)).toMatch(/^[125]0*$/);
    const days = (await page.evaluate(
      `document.querySelectorAll(".chart text.x-label").length`,
    )) as number;
    expect(days).toBeGreaterThanOrEqual(4);
  });

  it("shows Billing's budget as a bar and the twelve months as charts", async () => {
    const { page } = chrome;
    await page.goto(`${app.url}/settings/billing`);
    const bar = page.getByRole("img", { name: /^Monthly budget \$2\.00:/ });
    expect(await bar.getAttribute("aria-label")).toBe(
      "Monthly budget $2.00: $1.40 spent, $0.10 held, $0.50 left.",
    );
    const spentWidth = Number(await bar.locator("rect.spent").getAttribute("width"));
    expect(spentWidth).toBeCloseTo(70, 1);
    const months = page.getByRole("region", { name: "Last 12 months" });
    for (const name of [/^Velvet's charge per month/, /^Enrichments per month/]) {
      const chart = months.getByRole("img", { name });
      expect(await chart.isVisible()).toBe(true);
      expect(await chart.locator("g > title").count()).toBe(12);
    }
    // The figures stay available as a table, folded under the charts.
    const table = months.locator("details table");
    expect(await table.isVisible()).toBe(false);
    await months.getByText("Each month's figures, with its days").click();
    expect(await table.locator("tbody tr").count()).toBe(12);
    await axeAtBothWidths("Billing");
  });

  it("draws every VIP of the threshold chart in the legend's VIP colour, and precision month by month", async () => {
    const { page } = chrome;
    await page.goto(`${app.url}/settings/alerts`);
    const bands = (await page.evaluate(`(() => {
      const fill = (el) => getComputedStyle(el).fill;
      const legend = document.querySelector("#score-distribution .legend i.primary");
      const vipColour = getComputedStyle(legend).backgroundColor;
      return [...document.querySelectorAll("#score-distribution svg g")].map((g) => ({
        title: g.querySelector("title").textContent,
        vipColour,
        fills: [...g.querySelectorAll("rect")].map(fill),
        heights: [...g.querySelectorAll("rect")].map((r) => Number(r.getAttribute("height"))),
      }));
    })()`)) as Array<{ title: string; vipColour: string; fills: string[]; heights: number[] }>;
    expect(bands).toHaveLength(10);
    const cut = bands.find((b) => b.title.startsWith("Score 70–79"));
    expect(cut?.title).toMatch(/: \d+ customers?, \d+ VIPs?$/);
    // The band the threshold of 75 cuts: the plain part under the VIP part.
    expect(cut?.fills).toHaveLength(2);
    expect(cut?.fills[1]).toBe(cut?.vipColour);
    expect(cut?.fills[0]).not.toBe(cut?.vipColour);
    for (const band of bands.filter((b) => /^Score (8|9)0/.test(b.title) && b.fills.length > 0))
      expect(
        band.fills.every((f) => f === band.vipColour),
        band.title,
      ).toBe(true);
    for (const band of bands.filter((b) => /^Score [0-6]0?–/.test(b.title)))
      expect(band.fills.includes(band.vipColour), band.title).toBe(false);

    const precision = page.getByRole("region", { name: "Precision from your verdicts" });
    const history = precision.getByRole("img", { name: /^Precision at 75 by the month/ });
    expect(await history.getAttribute("aria-label")).toMatch(/: \d+ %, \d+ right of \d+ judged/);
    expect(await history.locator("circle.point").count()).toBeGreaterThanOrEqual(1);
    await axeAtBothWidths("Settings → Alerts");
  });
});
