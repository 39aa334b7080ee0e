/**
 * Customers: the searchable, filterable list, with each customer's tier when the account names
 * tiers, and a "Download CSV" of every customer the filters match (customer-csv-route.ts).
 */

import type { UserRole } from "../../../db/schema.js";
import { plural } from "../../../lib/plural.js";
import type { Tier } from "../../customers/tiers.js";
import {
  enrichmentBadge,
  type Notice,
  notice,
  pageHead,
  pager,
  sampleBadge,
  vipBadge,
  withQuery,
} from "../html/components.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { page } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { type CustomerListQuery, customerListParams } from "./customer-list-query.js";
import { CUSTOMERS_PAGE_SIZE, type CustomerListRow } from "./list-customers.js";
import { tierBadge } from "./tier-badge.js";

export interface CustomerListProps {
  session: DashboardSession;
  query: CustomerListQuery;
  rows: CustomerListRow[];
  total: number;
  /** The account's tiers, highest floor first ([]: no tier column, no tier filter). */
  tiers: readonly Tier[];
  notice?: Notice | null;
}

function tierFilter(q: CustomerListQuery, tiers: readonly Tier[]): SafeHtml {
  if (tiers.length === 0) return html``;
  const current = (q.tier ?? "").toLowerCase();
  const option = (value: string, label: string) =>
    html`<option value="${value}"${value.toLowerCase() === current ? html` selected` : ""}>${label}</option>`;
  return html`<div class="field half"><label for="f-tier">Tier</label>
    <select id="f-tier" name="tier">${option("", "Any tier")}${tiers.map((t) => option(t.name, `${t.name} (${t.floor}+)`))}</select></div>`;
}

function filters(q: CustomerListQuery, tiers: readonly Tier[]): SafeHtml {
  const option = (value: string, label: string, current: string) =>
    html`<option value="${value}"${value === current ? html` selected` : ""}>${label}</option>`;
  return html`<form class="filters" method="get" action="/customers" role="search">
  <div class="field"><label for="f-q">Search</label>
    <input type="search" id="f-q" name="q" value="${q.q}" placeholder="Name or e-mail"></div>
  <div class="field half"><label for="f-status">Enrichment</label>
    <select id="f-status" name="status">${option("", "Any status", q.status ?? "")}${option("enriched", "Enriched", q.status ?? "")}${option("pending", "Pending", q.status ?? "")}${option("failed", "Failed", q.status ?? "")}</select></div>
  <div class="field half"><label for="f-sort">Sort</label>
    <select id="f-sort" name="sort">${option("recent", "Newest first", q.sort)}${option("score", "Highest score", q.sort)}</select></div>
  ${tierFilter(q, tiers)}
  <div class="field"><label class="checkbox"><input type="checkbox" name="vip" value="1"${q.vip ? html` checked` : ""}> VIPs only</label></div>
  <div class="field"><button type="submit">Apply</button></div>
</form>`;
}

function row(c: CustomerListRow, withTiers: boolean): SafeHtml {
  const name = `${c.firstName} ${c.lastName}`.trim() || c.email;
  return html`<tr>
  <td class="primary-cell"><a href="/customers/${c.id}">${name}</a> ${vipBadge(c.vip)} ${sampleBadge(c.sample)}<div class="muted small wrap-anywhere">${c.email}</div></td>
  <td data-label="Enrichment">${enrichmentBadge(c.status)}</td>
  <td data-label="Score" class="num">${c.score === null ? html`<span class="muted">—</span>` : c.score}</td>
  ${withTiers ? html`<td data-label="Tier">${c.tier === null ? html`<span class="muted">—</span>` : tierBadge(c.tier)}</td>` : ""}
  <td data-label="Orders" class="num">${c.orders}</td>
  <td data-label="First seen" class="nowrap">${timeTag(c.createdAt, false)}</td>
</tr>`;
}

function empty(q: CustomerListQuery): SafeHtml {
  const filtered = q.q !== "" || q.vip || q.status !== null || q.tier !== null;
  if (filtered) {
    return html`<div class="empty"><h2>No customers match</h2>
<p class="muted">Try another name or e-mail, or widen the filters.</p>
<div class="actions"><a class="button secondary" href="/customers">Clear filters</a></div></div>`;
  }
  return html`<div class="empty"><h2>No customers yet</h2>
<p class="muted">Customers appear here as soon as your store sends its first order to Velvet.</p>
<div class="actions"><a class="button" href="/settings/integrations">Get your API key and an example request</a></div></div>`;
}

/**
 * The CSV of every customer the current filters match (not only this page): owners and admins,
 * who may also download one customer's data (a member sees the list, not a copy of it).
 */
function downloadLink(q: CustomerListQuery, total: number, role: UserRole): SafeHtml {
  if (total === 0 || role === "member") return html``;
  const { page: _page, sort: _sort, ...filters } = customerListParams(q);
  return html`<div class="actions"><a class="button secondary small" href="${withQuery("/customers.csv", filters)}" download>Download CSV</a> <span class="muted small">${plural(total, "customer")}: e-mail, name, score, tier, VIP since, lifetime spend, order count.</span></div>`;
}

export function customerListView(p: CustomerListProps): SafeHtml {
  const q = p.query;
  const withTiers = p.tiers.length > 0;
  return page({
    title: "Customers",
    session: p.session,
    section: "customers",
    body: html`${pageHead("Customers", `${plural(p.total, "customer")}${q.q || q.vip || q.status || q.tier ? (p.total === 1 ? " matches" : " match") : " in your store"}. A VIP scores above your threshold of ${p.session.vipThreshold}.`)}
${notice(p.notice)}
<section class="panel">
${filters(q, p.tiers)}
${downloadLink(q, p.total, p.session.role)}
${
  p.rows.length === 0
    ? empty(q)
    : html`<div class="table-wrap"><table class="stack">
  <caption class="visually-hidden">Customers</caption>
  <thead><tr><th scope="col">Customer</th><th scope="col">Enrichment</th><th scope="col" class="num">Score</th>${withTiers ? html`<th scope="col">Tier</th>` : ""}<th scope="col" class="num">Orders</th><th scope="col">First seen</th></tr></thead>
  <tbody>${p.rows.map((r) => row(r, withTiers))}</tbody>
</table></div>`
}
${pager({
  page: q.page,
  pageSize: CUSTOMERS_PAGE_SIZE,
  total: p.total,
  noun: "customer",
  href: (n) => withQuery("/customers", customerListParams(q, n)),
})}
</section>`,
  });
}
