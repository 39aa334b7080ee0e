/**
 * Accessibility check of the page a real browser shows: axe-core (Deque's rules engine, WCAG 2.x
 * A and AA) injected into the page and run there. Returns the violations, each with the rule,
 * its impact and the elements it found, so a failing test says what is wrong and where.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { DESKTOP, PHONE } from "./chromium.js";

const AXE_SOURCE = fs.readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the page's CSP (script-src 'self') refuses a
  // script tag, and rightly so; the check must not loosen it.
  await page.evaluate(AXE_SOURCE);
  // A string, run in the page (whose DOM types this Node project does not compile against).
  const run = `axe.run(document, {
    runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
  }).then((r) => r.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? null,
    help: v.help,
    targets: v.nodes.map((n) => n.target.join(" ")),
  })))`;
  return (await page.evaluate(run)) as AxeViolation[];
}

/** No violation at the phone's and the desktop's width; the page is left at `endAt`. */
export async function expectAxeCleanAtBothWidths(
  page: Page,
  what: string,
  endAt: typeof DESKTOP = DESKTOP,
): Promise<void> {
  for (const size of [PHONE, DESKTOP]) {
    await page.setViewportSize(size);
    expect(await axeViolations(page), `${what} at ${size.width}px`).toEqual([]);
  }
  await page.setViewportSize(endAt);
}
