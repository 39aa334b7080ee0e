/**
 * Accessibility checks with axe-core (WCAG 2.x A and AA rules) inside the real page. The
 * script is evaluated through the DevTools protocol, so the dashboard's strict CSP (own scripts
 * only) stays on for the page itself.
 */

import fs from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const source = fs.readFileSync(
  createRequire(import.meta.url).resolve("axe-core/axe.min.js"),
  "utf8",
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** The page's violations (empty when it passes), each with the elements concerned. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(source);
  return page.evaluate(async () => {
    // Runs in the page: the test's TypeScript has no DOM types, hence the narrow casts.
    const w = globalThis as unknown as { axe: AxeApi; document: unknown };
    const result = await w.axe.run(w.document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(" ")),
    }));
  });
}

interface AxeApi {
  run(
    context: unknown,
    options: object,
  ): Promise<{
    violations: Array<{
      id: string;
      impact: string | null;
      help: string;
      nodes: Array<{ target: unknown[] }>;
    }>;
  }>;
}
