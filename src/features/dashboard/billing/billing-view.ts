/** Settings → Billing: what was charged, by month and by day, and the settings declared for the page. */

import type { Usage } from "../../billing/get-usage.js";
import type { BudgetStatus } from "../../billing/monthly-budget.js";
import type { ProviderSpendSummary } from "../../billing/provider-spend.js";
import { providerLabel } from "../../enrichment/providers/provider-registry.js";
import { barChart } from "../html/bar-chart.js";
import { pageHead } from "../html/components.js";
import { formatCount, formatMoney, formatMonth } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import type { SettingErrors, SettingTexts } from "../settings/setting-fields.js";
import { billingSettings } from "./billing-settings.js";
import { budgetLead } from "./budget-panel.js";
import type { BillingSummary } from "./get-billing-summary.js";
import { monthsPanel } from "./months-panel.js";

export interface BillingProps {
  session: DashboardSession;
  usage: Usage;
  /** What the enrichment providers billed for the account's lookups that month. */
  providerSpend: ProviderSpendSummary;
  /** This month's budget, whatever month is shown. */
  budget: BudgetStatus;
  /** The page's declared settings as saved. */
  settings: SettingTexts;
  /** The sentences under fields a submitted form had refused. */
  settingErrors: SettingErrors;
  summary: BillingSummary;
  currentMonth: string;
  currentPriceUsd: string;
}

export function billingView(p: BillingProps): SafeHtml {
  const { usage, summary } = p;
  const isCurrent = usage.month === p.currentMonth;
  return page({
    title: "Billing",
    session: p.session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings</div>
${pageHead("Billing", "Each new customer's enrichment is charged once; repeat orders are free.")}
${settingsTabs("billing", p.session.role)}
<div class="grid">
  <div class="stat"><div class="label">Enrichments, ${formatMonth(usage.month)}</div><div class="value">${formatCount(usage.enrichments)}</div><div class="hint">${isCurrent ? "This month so far" : "Whole month"}</div></div>
  <div class="stat"><div class="label">Unit price</div><div class="value">${formatMoney(usage.unitPriceUsd)}</div><div class="hint">Per enrichment${usage.unitPriceUsd !== p.currentPriceUsd ? html` · now ${formatMoney(p.currentPriceUsd)}` : ""}</div></div>
  <div class="stat"><div class="label">Amount, ${formatMonth(usage.month)}</div><div class="value">${formatMoney(usage.amountUsd)}</div><div class="hint">Exact: each charge at its own price</div></div>
</div>
${providerSpendPanel(p.providerSpend, usage, isCurrent)}
${billingSettings(p.session, p.settings, p.settingErrors, { monthlyBudgetUsd: budgetLead(p.budget) }, isCurrent ? null : usage.month)}
<section class="panel" aria-labelledby="daily-title">
  <div class="panel-head"><h2 id="daily-title">Enrichments per day, ${formatMonth(usage.month)}</h2>${
    isCurrent ? "" : html`<a href="/settings/billing">Back to this month</a>`
  }</div>
  ${
    usage.enrichments === 0
      ? html`<p class="muted">No enrichments ${isCurrent ? "yet this month" : "that month"}. Each new customer you send is enriched once and charged once.</p>`
      : barChart({
          points: summary.days,
          label: `Enrichments per day in ${formatMonth(usage.month)}`,
          noun: "enrichment",
        })
  }
</section>
${monthsPanel(summary.months, usage.month)}`,
  });
}

function providerSpendPanel(spend: ProviderSpendSummary, usage: Usage, isCurrent: boolean) {
  return html`<section class="panel" aria-labelledby="providers-title">
  <h2 id="providers-title">Provider costs, ${formatMonth(usage.month)}</h2>
  <p class="muted small">What the enrichment providers bill for this account's lookups, beside Velvet's own charge of ${formatMoney(usage.amountUsd)}. A provider bills a lookup only when it answers with a profile.</p>
  ${
    spend.providers.length === 0
      ? html`<p class="muted">No billed lookups ${isCurrent ? "yet this month" : "that month"}.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <caption class="visually-hidden">Billed lookups and their cost per provider, ${formatMonth(usage.month)}</caption>
    <thead><tr><th scope="col">Provider</th><th scope="col" class="num">Billed lookups</th><th scope="col" class="num">Cost</th></tr></thead>
    <tbody>${spend.providers.map(
      (row) => html`<tr>
      <td class="primary-cell">${providerLabel(row.provider)}</td>
      <td data-label="Billed lookups" class="num">${formatCount(row.lookups)}</td>
      <td data-label="Cost" class="num nowrap">${formatMoney(row.amountUsd)}</td>
    </tr>`,
    )}</tbody>
    <tfoot><tr><th scope="row">All providers</th><td data-label="Billed lookups" class="num">${formatCount(spend.providers.reduce((s, r) => s + r.lookups, 0))}</td><td data-label="Cost" class="num nowrap">${formatMoney(spend.providerCostUsd)}</td></tr></tfoot>
  </table></div>`
  }
</section>`;
}
