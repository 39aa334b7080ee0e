/**
 * Settings → Billing's last 12 months: Velvet's charge and the enrichments per month as two
 * column charts (each month's exact figures in its tooltip), and the same months as a table
 * with a link to each month's days, folded under the charts.
 */
import { fromMicros, toMicros } from "../../../lib/decimal.js";
import { plural } from "../../../lib/plural.js";
import { columnChart } from "../html/bar-chart.js";
import { formatCount, formatMoney, formatMonth } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import type { MonthUsage } from "./get-billing-summary.js";

/** "2025-03" → "Mar". */
function shortMonth(month: string): string {
  return formatMonth(month).slice(0, 3);
}

function charts(oldestFirst: MonthUsage[], total: number, amountUsd: string): SafeHtml {
  const first = oldestFirst[0]?.month ?? "";
  const last = oldestFirst[oldestFirst.length - 1]?.month ?? "";
  const span = `${formatMonth(first)} to ${formatMonth(last)}`;
  const legend = [{ text: `Calendar months in UTC, ${span}` }];
  const spend = columnChart({
    columns: oldestFirst.map((m) => ({
      label: shortMonth(m.month),
      tip: `${formatMonth(m.month)}: ${formatMoney(m.amountUsd)} (${plural(m.enrichments, "enrichment")})`,
      value: Number(m.amountUsd),
    })),
    summary: `Velvet's charge per month, ${span}: ${formatMoney(amountUsd)} in all.`,
    legend: [{ text: "Charge", key: "bar" }, ...legend],
    integer: false,
    formatTick: (v) => formatMoney(v.toFixed(2)),
    height: 170,
  });
  const count = columnChart({
    columns: oldestFirst.map((m) => ({
      label: shortMonth(m.month),
      tip: `${formatMonth(m.month)}: ${plural(m.enrichments, "enrichment")}`,
      value: m.enrichments,
    })),
    summary: `Enrichments per month, ${span}: ${plural(total, "enrichment")} in all.`,
    legend: [{ text: "Enrichments", key: "bar" }, ...legend],
    height: 170,
  });
  return html`<h3 id="spend-title">Charge per month</h3>
  ${spend}
  <h3 id="month-count-title">Enrichments per month</h3>
  ${count}`;
}

export function monthsPanel(newestFirst: MonthUsage[], shownMonth: string): SafeHtml {
  const total = newestFirst.reduce((s, m) => s + m.enrichments, 0);
  const amountUsd = fromMicros(newestFirst.reduce((s, m) => s + toMicros(m.amountUsd), 0n));
  const table = html`<div class="table-wrap"><table class="stack">
    <caption class="visually-hidden">Enrichments and amounts, last 12 months</caption>
    <thead><tr><th scope="col">Month</th><th scope="col" class="num">Enrichments</th><th scope="col" class="num">Unit price</th><th scope="col" class="num">Amount</th></tr></thead>
    <tbody>${newestFirst.map(
      (m) => html`<tr${m.month === shownMonth ? html` aria-current="true"` : ""}>
      <td class="primary-cell"><a href="/settings/billing?month=${m.month}">${formatMonth(m.month)}</a></td>
      <td data-label="Enrichments" class="num">${formatCount(m.enrichments)}</td>
      <td data-label="Unit price" class="num nowrap">${m.unitPricesUsd.length === 0 ? html`<span class="muted">—</span>` : m.unitPricesUsd.map((u) => formatMoney(u)).join(" / ")}</td>
      <td data-label="Amount" class="num nowrap">${formatMoney(m.amountUsd)}</td>
    </tr>`,
    )}</tbody>
  </table></div>`;
  return html`<section class="panel" aria-labelledby="months-title" id="months">
  <h2 id="months-title">Last 12 months</h2>
  ${total === 0 ? html`<p class="muted">Nothing charged in the last 12 months.</p>` : charts([...newestFirst].reverse(), total, amountUsd)}
  <details class="months-table"${total === 0 ? html` open` : ""}>
    <summary>Each month's figures, with its days</summary>
    ${table}
  </details>
  <p class="muted small">Months are calendar months in UTC.</p>
</section>`;
}
