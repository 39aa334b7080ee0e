/**
 * How a dry run says what its new customers would cost: Velvet's charge, the providers' lookups
 * (per provider) and the budget's verdict, in the same words for the file import and the store
 * backfill, on the command line and in the dashboard.
 */
import { formatMoney } from "../../lib/money.js";
import { plural } from "../../lib/plural.js";
import type { LookupCostEstimate } from "./estimate-lookup-cost.js";

export function chargeLine(s: { charges: number; amountUsd: string }, applied: boolean): string {
  return `${applied ? "Charged" : "Would charge"}: ${plural(s.charges, "enrichment")}, ${formatMoney(s.amountUsd, "USD")}`;
}

export function providerCostLine(s: LookupCostEstimate): string {
  const each =
    s.providers.length === 0
      ? ""
      : ` (${s.providers.map((p) => `${p.provider} ${formatMoney(p.amountUsd, "USD")}`).join(", ")})`;
  return `Provider lookups: at most ${formatMoney(s.providerCostUsd, "USD")}${each}${budgetLine(s)}`;
}

function budgetLine(s: LookupCostEstimate): string {
  if (s.budgetUsd === null || s.budgetLeftUsd === null) return " (no monthly budget)";
  const left = `${formatMoney(s.budgetLeftUsd, "USD")} left of the ${formatMoney(s.budgetUsd, "USD")} monthly budget`;
  return s.budgetCovers
    ? `; ${left} covers it`
    : `; ${left} does not cover it: the rest are scored on the free signals and looked up when the budget allows`;
}
