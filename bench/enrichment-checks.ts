/**
 * The enrichment benchmark's verdicts: its three targets (docs/performance.md, Enrichment), and the
 * correctness of every run (a fast wrong result is not a result).
 */
import { PROVIDER_NAMES } from "../src/features/enrichment/providers/provider-registry.js";
import type { EnrichmentRun } from "./enrichment-run.js";
import {
  MAX_MEDIAN_TO_RESULT_MS,
  MAX_P99_RATIO,
  MIN_ENRICHMENTS_PER_SEC,
} from "./enrichment-settings.js";
import type { Target } from "./phase.js";

/** Every registered provider answers each customer (the fakes are all on). */
const PROVIDERS = PROVIDER_NAMES.length;

/** What is wrong with a run's answers and rows; empty when nothing is. */
export function problemsOf(run: EnrichmentRun): string[] {
  const { load, counts: c } = run;
  const problems: string[] = [];
  if (load.correct !== load.sent) {
    problems.push(
      `${load.sent - load.correct} of ${load.sent} submissions not answered 200 with a correct body (non-2xx ${load.non2xx}, wrong ${load.mismatches}, errors ${load.errors})`,
    );
  }
  if (c.customers !== load.correct)
    problems.push(`customers ${c.customers} ≠ answered ${load.correct}`);
  if (c.orders !== c.customers) problems.push(`orders ${c.orders} ≠ customers ${c.customers}`);
  if (c.usageCharges !== c.customers)
    problems.push(`charges ${c.usageCharges} ≠ customers ${c.customers}`);
  if (run.worker === "off") {
    if (c.jobs !== c.customers) problems.push(`queued jobs ${c.jobs} ≠ customers ${c.customers}`);
    return problems;
  }
  if (run.drainSec === null) problems.push("enrichments still pending when the wait ran out");
  if (c.enriched !== c.customers)
    problems.push(`enriched ${c.enriched} ≠ customers ${c.customers}`);
  if (c.failed !== 0) problems.push(`${c.failed} enrichments failed`);
  if (c.jobs !== 0) problems.push(`${c.jobs} jobs left`);
  const matched = c.providerResults.matched ?? 0;
  const others = Object.entries(c.providerResults).filter(([o]) => o !== "matched");
  if (matched !== PROVIDERS * c.customers || others.some(([, n]) => n > 0)) {
    problems.push(
      `provider results ${JSON.stringify(c.providerResults)}, expected ${PROVIDERS * c.customers} matched`,
    );
  }
  return problems;
}

export function enrichmentTargets(runs: EnrichmentRun[]): Target[] {
  const idle = find(runs, "idle");
  const slow = find(runs, "slow");
  const instant = find(runs, "instant");
  const done = slow.completions;
  const ratio = slow.load.window.p99Ms / idle.load.window.p99Ms;
  const toResult = instant.toResult;
  const ms = (n: number) => n.toFixed(1);
  return [
    {
      name: `>= ${MIN_ENRICHMENTS_PER_SEC} completed enrichments/s, providers answering in 2–5 s`,
      pass: done !== undefined && done.perSec >= MIN_ENRICHMENTS_PER_SEC,
      detail:
        done === undefined
          ? "not measured"
          : `${done.perSec.toFixed(1)}/s (${done.count} stored in the ${(slow.load.windowEnd - slow.load.windowStart) / 1000} s window; per second ${Math.min(...done.bySecond)}–${Math.max(...done.bySecond)}), submitting ${slow.ratePerSec}/s; last enrichment stored ${slow.drainSec?.toFixed(1) ?? "never"} s after the last submission`,
    },
    {
      name: `order p99 while enriching <= ${MAX_P99_RATIO}× idle p99 (same rate and connections)`,
      pass: ratio <= MAX_P99_RATIO,
      detail: `${ms(slow.load.window.p99Ms)} ms vs ${ms(idle.load.window.p99Ms)} ms idle = ${ratio.toFixed(2)}× (p50 ${ms(slow.load.window.p50Ms)} vs ${ms(idle.load.window.p50Ms)} ms) at ${slow.ratePerSec}/s`,
    },
    {
      name: `instant providers: submission → stored result median < ${MAX_MEDIAN_TO_RESULT_MS} ms`,
      pass:
        toResult !== undefined && toResult.count > 0 && toResult.p50Ms < MAX_MEDIAN_TO_RESULT_MS,
      detail:
        toResult === undefined
          ? "not measured"
          : `p50 ${toResult.p50Ms} ms, p90 ${toResult.p90Ms} ms, p99 ${toResult.p99Ms} ms, max ${toResult.maxMs} ms over ${toResult.count} customers submitted in the window at ${instant.ratePerSec}/s`,
    },
    {
      name: "every submission answered 200 correctly; one customer, order, charge each; all enriched, none failed, no job left",
      pass: runs.every((r) => problemsOf(r).length === 0),
      detail: runs
        .map((r) => {
          const p = problemsOf(r);
          return `${r.name}: ${p.length === 0 ? `ok (${r.counts.customers} customers${r.worker !== "off" ? `, ${r.counts.enriched} enriched, ${r.counts.retried} needed a retry` : ""})` : p.join("; ")}`;
        })
        .join("; "),
    },
  ];
}

function find(runs: EnrichmentRun[], name: EnrichmentRun["name"]): EnrichmentRun {
  const run = runs.find((r) => r.name === name);
  if (run === undefined) throw new Error(`the ${name} run is missing`);
  return run;
}
