/**
 * The monthly budget for paid provider lookups. A change resets the month's notices
 * (billing/budget-notices.ts) and requeues the customers the budget held back when the new
 * budget has room (enrichment/resume-deferred-lookups.ts).
 */
import { monthOf } from "../../billing/get-usage.js";
import { resumeDeferredLookups } from "../../enrichment/resume-deferred-lookups.js";
import { defineSetting } from "./account-setting.js";

export const BUDGET_RULE = "a monthly budget is an amount in USD such as 50 or 49.99";

/** A budget as typed: a non-negative amount in USD with at most 2 decimals; "" removes it. */
export function parseBudget(text: string): { ok: true; budgetUsd: string | null } | { ok: false } {
  const v = text.trim().replace(/^\$/, "");
  if (v === "") return { ok: true, budgetUsd: null };
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(v)) return { ok: false };
  return { ok: true, budgetUsd: v };
}

export const monthlyBudgetUsd = defineSetting({
  column: "monthly_budget_usd",
  label: "Monthly lookup budget",
  default: null as string | null,
  parse(text: string) {
    const parsed = parseBudget(text);
    return parsed.ok ? { ok: true, value: parsed.budgetUsd } : { ok: false, problem: BUDGET_RULE };
  },
  text: (value: string | null) => value ?? "",
  describe: (value: string | null) => (value === null ? "none" : `$${value}`),
  role: "owner",
  audit: { action: "monthly_budget.changed" },
  form: {
    page: "billing",
    name: "budget",
    title: "Monthly lookup budget",
    label: "Monthly budget (USD)",
    help: "Leave empty for no budget. At 80 % the owners are told by e-mail; when it is reached, paid lookups stop until the month turns or the budget is raised, and customers are scored on the free signals meanwhile.",
    input: { kind: "text" },
    error: () => "Enter an amount in USD, such as 50 or 49.99, or leave it empty for no budget.",
  },
  cli: {
    flag: "--monthly-budget <usd>",
    description: 'monthly budget for paid provider lookups, in USD ("" removes it)',
  },
  async afterChange({ trx, accountId, now, config }) {
    // A new budget starts its notices afresh: the banner goes, and 80 % of it is told again.
    await trx
      .updateTable("budget_months")
      .set({ notified_80: 0, notified_100: 0 })
      .where("account_id", "=", accountId)
      .where("month", "=", monthOf(now))
      .execute();
    await resumeDeferredLookups(trx, accountId, now, config.enrichment.maxAttempts);
  },
});
