/** Settings → Billing: the monthly lookup budget, changed by the owner. */

import type { BudgetStatus } from "../../billing/monthly-budget.js";
import { atLeast } from "../../team/roles.js";
import { field } from "../html/fields.js";
import { formatMoney } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";

export const BUDGET_PATH = "/settings/billing/budget";

export function budgetPanel(
  session: DashboardSession,
  status: BudgetStatus,
  error: string | undefined,
): SafeHtml {
  const state =
    status.budgetUsd === null
      ? html`<p>No monthly budget: paid lookups are not capped.</p>`
      : html`<p>${formatMoney(status.spentUsd)} of ${formatMoney(status.budgetUsd)} spent this month (${status.percentUsed ?? 0} %)${
          status.reservedUsd === "0.00"
            ? ""
            : html`, ${formatMoney(status.reservedUsd)} held by lookups in progress`
        }.</p>`;
  const form = atLeast(session.role, "owner")
    ? html`<form method="post" action="${BUDGET_PATH}" novalidate>${csrfField(session)}
  ${field({
    name: "budget",
    label: "Monthly budget (USD)",
    value: status.budgetUsd ?? "",
    error,
    help: "Leave empty for no budget. At 80 % the owners are told by e-mail; when it is reached, paid lookups stop until the month turns or the budget is raised, and customers are scored on the free signals meanwhile.",
  })}
  <div class="actions"><button type="submit">Save budget</button></div>
</form>`
    : html`<p class="muted small">The account's owner sets the budget.</p>`;
  return html`<section class="panel" aria-labelledby="budget-title">
  <h2 id="budget-title">Monthly lookup budget</h2>
  ${state}
  ${form}
</section>`;
}
