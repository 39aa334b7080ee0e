/**
 * The webhooks benchmark's verdicts: every delivery answered 200 with the right body (`new`, or
 * `duplicate` for a repeat), the slowest answer of each whole stream under Shopify's five
 * seconds, the measured window's p99 at most MAX_P99_MS, and afterwards every delivered order
 * taken: one event, order, customer and charge per distinct delivery, every customer enriched,
 * and the connection as it was (active, no failure: nothing but the deliveries touched it).
 */
import type { Target } from "./phase.js";
import type { WebhookRun } from "./webhooks-run.js";

/** Shopify: a delivery not answered within five seconds failed and is retried. */
export const SHOPIFY_LIMIT_MS = 5000;
export const MAX_P99_MS = 100;

const label = (r: WebhookRun) => `${r.engine} ${r.ratePerSec}/s`;

/** What is wrong with a run's answers; empty when nothing is. */
function answerProblems(r: WebhookRun): string[] {
  const { load, tally } = r;
  const problems: string[] = [];
  const others = Object.entries(load.statusCodes).filter(([code]) => code !== "200");
  if (others.length > 0 || load.errors > 0)
    problems.push(
      `answered ${others.map(([c, n]) => `${n} × ${c}`).join(", ") || "no other status"}, ${load.errors} without an answer`,
    );
  if (load.mismatches > 0) problems.push(`${load.mismatches} answered 200 with the wrong body`);
  if (tally.repeatsAnsweredDuplicate !== tally.repeatsSent)
    problems.push(
      `${tally.repeatsSent - tally.repeatsAnsweredDuplicate} of ${tally.repeatsSent} repeats not answered duplicate`,
    );
  return problems;
}

/** What is wrong with the rows after a run; empty when nothing is. */
export function intakeProblems(r: WebhookRun): string[] {
  const c = r.settled.counts;
  const n = r.tally.newSent;
  const problems: string[] = [];
  const same = (name: string, got: number) => {
    if (got !== n) problems.push(`${name} ${got} ≠ ${n} distinct deliveries`);
  };
  same("stored deliveries", c.events);
  same("orders taken", c.eventsTaken);
  same("orders", c.orders);
  same("customers", c.customers);
  same("charges", c.usageCharges);
  same("customers enriched", c.enriched);
  if (c.eventsWaiting > 0) problems.push(`${c.eventsWaiting} deliveries never taken`);
  if (Object.keys(c.otherOutcomes).length > 0)
    problems.push(`other outcomes ${JSON.stringify(c.otherOutcomes)}`);
  if (c.failed > 0) problems.push(`${c.failed} enrichments failed`);
  if (r.settled.settledAt === null) problems.push("work still pending when the wait ran out");
  const after = r.connectionAfter;
  if (after.state !== "active" || after.failures > 0 || after.lastError !== null)
    problems.push(
      `connection ${after.state}, ${after.failures} failures, ${after.lastError ?? ""}`,
    );
  return problems;
}

export function webhookTargets(runs: WebhookRun[]): Target[] {
  const each = (f: (r: WebhookRun) => string) => runs.map((r) => `${label(r)}: ${f(r)}`).join("; ");
  const answered = runs.map((r) => [r, answerProblems(r)] as const);
  const taken = runs.map((r) => [r, intakeProblems(r)] as const);
  return [
    {
      name: "every delivery answered 200 with the right body (repeats: duplicate)",
      pass: answered.every(([, p]) => p.length === 0),
      detail: answered
        .map(
          ([r, p]) =>
            `${label(r)}: ${p.length === 0 ? `${r.load.sent} × 200 (${r.tally.repeatsSent} repeats duplicate)` : p.join(", ")}`,
        )
        .join("; "),
    },
    {
      name: `slowest answer of each stream (warm-up included) < ${SHOPIFY_LIMIT_MS} ms, Shopify's limit`,
      pass: runs.every((r) => r.load.all.maxMs < SHOPIFY_LIMIT_MS && r.load.errors === 0),
      detail: each((r) => `${r.load.all.maxMs.toFixed(0)} ms`),
    },
    {
      name: `answer p99 <= ${MAX_P99_MS} ms (measured window)`,
      pass: runs.every((r) => r.load.window.p99Ms <= MAX_P99_MS),
      detail: each((r) => `${r.load.window.p99Ms.toFixed(1)} ms`),
    },
    {
      name: "every order taken after the run: one order, customer and charge per delivery, all enriched",
      pass: taken.every(([, p]) => p.length === 0),
      detail: taken
        .map(
          ([r, p]) =>
            `${label(r)}: ${p.length === 0 ? `${r.tally.newSent} orders, customers, charges, enrichments` : p.join(", ")}`,
        )
        .join("; "),
    },
  ];
}
