/** Alerts: every VIP alert sent, with each channel's delivery status and error. */
import type { AlertStatus } from "../../../db/schema.js";
import { pageHead, pager, withQuery } from "../html/components.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { page } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { verdictButtons, verdictSummary } from "../verdicts/verdict-view.js";
import { channelCell, deliveryDetails } from "./delivery-view.js";
import { ALERTS_PAGE_SIZE, type AlertLogRow } from "./list-alert-log.js";

export interface AlertLogProps {
  session: DashboardSession;
  rows: AlertLogRow[];
  total: number;
  status: AlertStatus | null;
  page: number;
  channelsConfigured: boolean;
}

function filter(status: AlertStatus | null): SafeHtml {
  const options: Array<[string, string]> = [
    ["", "All"],
    ["delivered", "Delivered"],
    ["pending", "Sending"],
    ["waiting", "Waiting for e-mail"],
    ["failed", "Failed"],
  ];
  return html`<form class="filters" method="get" action="/alerts">
  <div class="field"><label for="f-status">Delivery</label>
  <select id="f-status" name="status">${options.map(([v, l]) => html`<option value="${v}"${(status ?? "") === v ? html` selected` : ""}>${l}</option>`)}</select></div>
  <div class="field"><button type="submit">Apply</button></div>
</form>`;
}

function empty(p: AlertLogProps): SafeHtml {
  if (p.status !== null) {
    return html`<div class="empty"><h2>No alerts with this status</h2><div class="actions"><a class="button secondary" href="/alerts">Show all alerts</a></div></div>`;
  }
  return html`<div class="empty"><h2>No alerts yet</h2>
<p class="muted">When enrichment finds a VIP, Velvet alerts your team in chat and by e-mail, and each delivery shows up here.</p>
${
  p.channelsConfigured
    ? html`<p class="muted">Your alert channels are set up: the first VIP will appear here.</p>`
    : html`<div class="actions"><a class="button" href="/settings/alerts">Set up alert channels</a></div>`
}</div>`;
}

function verdictCell(p: AlertLogProps, a: AlertLogRow): SafeHtml {
  if (!a.vipNow) return html`<span class="muted small">No longer a VIP</span>`;
  const back = withQuery("/alerts", { status: p.status, page: p.page > 1 ? p.page : null });
  return html`${verdictSummary(a.verdict, p.session)}${verdictButtons(p.session, a.customer_id, a.verdict, back, `is ${a.customerName} a VIP?`)}`;
}

export function alertLogView(p: AlertLogProps): SafeHtml {
  return page({
    title: "Alerts",
    session: p.session,
    section: "alerts",
    body: html`${pageHead("Alerts", "Every VIP alert, by channel, with its delivery.", html`<a class="button secondary" href="/settings/alerts">Alert settings</a>`)}
<section class="panel">
${filter(p.status)}
${
  p.rows.length === 0
    ? empty(p)
    : html`<div class="table-wrap"><table class="stack">
  <caption class="visually-hidden">Alerts</caption>
  <thead><tr><th scope="col">Customer</th><th scope="col">Channel</th><th scope="col" class="num">Score</th><th scope="col">Sent</th><th scope="col">Delivery</th><th scope="col">Verdict</th></tr></thead>
  <tbody>${p.rows.map(
    (a) => html`<tr>
    <td class="primary-cell"><a href="/customers/${a.customer_id}">${a.customerName}</a><div class="muted small wrap-anywhere">${a.customerEmail}</div></td>
    <td data-label="Channel">${channelCell(a)}</td>
    <td data-label="Score" class="num">${a.score} <span class="muted small">/ ${a.threshold}</span></td>
    <td data-label="Sent" class="nowrap">${timeTag(a.created_at)}</td>
    <td data-label="Delivery" class="block">${deliveryDetails(a)}</td>
    <td data-label="Verdict" class="block">${verdictCell(p, a)}</td>
  </tr>`,
  )}</tbody>
</table></div>`
}
${pager({ page: p.page, pageSize: ALERTS_PAGE_SIZE, total: p.total, noun: "alert", href: (n) => withQuery("/alerts", { status: p.status, page: n > 1 ? n : null }) })}
</section>`,
  });
}
