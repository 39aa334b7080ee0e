/**
 * Settings → Billing: the monthly lookup budget's own content in its panel, above the field its
 * declaration gives it (accounts/settings/monthly-budget.ts, billing-settings.ts).
 */

import { fromMicros, toMicros } from "../../../lib/decimal.js";
import type { BudgetStatus } from "../../billing/monthly-budget.js";
import { formatMoney } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";

/** Where the owners are told by e-mail, as a share of the budget (the notice's 80 %). */
const WARN_SHARE = 0.8;

/**
 * The month's budget as a bar: what is spent, what lookups in progress hold, what is left, and
 * a mark at 80 %. Drawn from numbers only (the amounts' exact text is in the sentence above and
 * the legend); past the budget the bar is as long as the spending and the budget is marked.
 */
function budgetBar(status: BudgetStatus, budgetUsd: string): SafeHtml {
  const budget = toMicros(budgetUsd);
  const spent = toMicros(status.spentUsd);
  const held = toMicros(status.reservedUsd);
  const left = budget > spent + held ? budget - spent - held : 0n;
  const whole = [budget, spent + held, 1n].reduce((a, b) => (a > b ? a : b));
  const pct = (micros: bigint) => (Number((micros * 100_000n) / whole) / 1000).toFixed(2);
  const state = spent >= budget ? "spent" : spent * 10n >= budget * 8n ? "warn" : "ok";
  const mark = (at: bigint, cls: string) =>
    html`<rect class="${cls}" x="${(Number(pct(at)) - 0.3).toFixed(2)}" y="0" width="0.6" height="10"></rect>`;
  const label = `Monthly budget ${formatMoney(budgetUsd)}: ${formatMoney(status.spentUsd)} spent, ${formatMoney(status.reservedUsd)} held, ${formatMoney(fromMicros(left))} left.`;
  return html`<figure class="budget-figure">
  <svg class="budget-bar" viewBox="0 0 100 10" preserveAspectRatio="none" role="img" aria-label="${label}">
    <rect class="track" x="0" y="0" width="100" height="10"></rect>
    <rect class="spent ${state}" x="0" y="0" width="${pct(spent)}" height="10"></rect>
    <rect class="held" x="${pct(spent)}" y="0" width="${pct(held)}" height="10"></rect>
    ${mark((budget * BigInt(WARN_SHARE * 10)) / 10n, "warn-mark")}${whole > budget ? mark(budget, "budget-mark") : ""}
  </svg>
  <figcaption class="legend"><span><i class="spent ${state}"></i>Spent ${formatMoney(status.spentUsd)}</span><span><i class="held"></i>Held ${formatMoney(status.reservedUsd)}</span><span><i class="left"></i>Left ${formatMoney(fromMicros(left))}</span><span><i class="mark"></i>${WARN_SHARE * 100} %: the owners are told</span></figcaption>
</figure>`;
}

/**
 * What the budget's panel says above its field (or its value, for those who may not change
 * it): this month's spending against the budget, in words and as a bar.
 */
export function budgetLead(status: BudgetStatus): SafeHtml {
  return status.budgetUsd === null
    ? html`<p>No monthly budget: paid lookups are not capped.</p>`
    : html`<p>${formatMoney(status.spentUsd)} of ${formatMoney(status.budgetUsd)} spent this month (${status.percentUsed ?? 0} %)${
        status.reservedUsd === "0.00"
          ? ""
          : html`, ${formatMoney(status.reservedUsd)} held by lookups in progress`
      }.</p>
  ${budgetBar(status, status.budgetUsd)}`;
}
