/** A customer's page: who they are, their enrichment and its explanation, orders and alerts. */
import { channelCell, deliveryDetails } from "../alerts-log/delivery-view.js";
import { sampleBadge, vipBadge } from "../html/components.js";
import { formatMoney, timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { verdictPanel } from "../verdicts/verdict-view.js";
import { enrichmentPanel, profilePanel, providersPanel, signalsPanel } from "./enrichment-view.js";
import type { CustomerDetail } from "./get-customer-detail.js";
import { orderStatusCell } from "./order-status-view.js";
import { tierBadge } from "./tier-badge.js";

function facts(d: CustomerDetail): SafeHtml {
  const c = d.customer;
  const place = [c.address_city, c.address_state, c.address_zipcode, c.address_country]
    .filter(Boolean)
    .join(", ");
  return html`<section class="panel" aria-labelledby="customer-title">
  <h2 id="customer-title">Customer</h2>
  <dl class="facts">
    <dt>E-mail</dt><dd><a href="mailto:${c.email}">${c.email}</a></dd>
    ${c.phone ? html`<dt>Phone</dt><dd>${c.phone}</dd>` : ""}
    ${place ? html`<dt>Address</dt><dd>${place}</dd>` : ""}
    ${d.tier === null ? "" : html`<dt>Tier</dt><dd>${d.tier}</dd>`}
    <dt>First seen</dt><dd>${timeTag(c.created_at)}</dd>
    <dt>Orders</dt><dd>${d.purchaseCount}${
      d.orderCount > d.purchaseCount
        ? html` <span class="muted small">(plus ${d.orderCount - d.purchaseCount} not counted: cancelled, refunded or voided)</span>`
        : ""
    }</dd>
  </dl>
</section>`;
}

function orders(d: CustomerDetail): SafeHtml {
  // Orders from the API or a file carry no status: the column shows once a store's order does.
  const statuses = d.orders.some((o) => o.status !== null);
  return html`<section class="panel" aria-labelledby="orders-title">
  <h2 id="orders-title">Orders</h2>
  ${
    d.orders.length === 0
      ? html`<p class="muted">No orders yet: this customer was sent without order details.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Order</th>${statuses ? html`<th scope="col">Status</th>` : ""}<th scope="col" class="num">Total</th><th scope="col">Received</th></tr></thead>
    <tbody>${d.orders.map(
      (o) =>
        html`<tr><td class="primary-cell">${o.order_number ?? o.external_order_id ?? html`<span class="muted">No number</span>`}${
          o.order_number && o.external_order_id
            ? html` <span class="muted small">id ${o.external_order_id}</span>`
            : ""
        }</td>${statuses ? html`<td data-label="Status">${orderStatusCell(o)}</td>` : ""}<td data-label="Total" class="num nowrap">${formatMoney(o.total, o.currency)}</td><td data-label="Received" class="nowrap">${timeTag(o.created_at)}</td></tr>`,
    )}</tbody>
  </table></div>${d.orderCount > d.orders.length ? html`<p class="muted small">Showing the latest ${d.orders.length} of ${d.orderCount} orders.</p>` : ""}`
  }
</section>`;
}

function alerts(d: CustomerDetail): SafeHtml {
  return html`<section class="panel" aria-labelledby="alerts-title">
  <h2 id="alerts-title">Alerts</h2>
  ${
    d.alerts.length === 0
      ? html`<p class="muted">${d.enrichment?.vip === 1 ? "No alert was sent: no alert channel was set up when this VIP was found." : "No alerts: alerts are sent for VIPs only."}</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Channel</th><th scope="col">Sent</th><th scope="col">Delivery</th></tr></thead>
    <tbody>${d.alerts.map(
      (a) =>
        html`<tr><td class="primary-cell">${channelCell(a)}</td><td data-label="Sent" class="nowrap">${timeTag(a.created_at)}</td><td data-label="Delivery" class="block">${deliveryDetails(a)}</td></tr>`,
    )}</tbody>
  </table></div>`
  }
</section>`;
}

function personalData(session: DashboardSession, d: CustomerDetail): SafeHtml {
  // Export and erasure are for admins and owners (members read only: session/role-guard.ts).
  if (session.role === "member") return html``;
  const id = d.customer.id;
  return html`<section class="panel" aria-labelledby="data-title">
  <h2 id="data-title">Personal data</h2>
  <p class="muted small">For a person's request to see or delete what you hold about them.</p>
  <div class="actions">
    <form class="inline" method="post" action="/customers/${id}/export">${csrfField(session)}<button type="submit" class="secondary small">Download data</button></form>
    <a class="button secondary small danger-link" href="/customers/${id}/delete">Delete this customer's data</a>
  </div>
</section>`;
}

export function customerDetailView(session: DashboardSession, d: CustomerDetail): SafeHtml {
  const c = d.customer;
  const name = `${c.first_name} ${c.last_name}`.trim() || c.email;
  return page({
    title: name,
    session,
    section: "customers",
    body: html`<div class="breadcrumb"><a href="/customers">Customers</a> ›</div>
<div class="page-head"><div><h1>${name} ${vipBadge(d.enrichment?.vip === 1)} ${tierBadge(d.tier)} ${sampleBadge(c.sample === 1)}</h1><p class="muted">${c.email}</p></div></div>
<div class="two-col">
  <div>${enrichmentPanel(d, session.vipThreshold)}${d.enrichment?.vip === 1 ? verdictPanel(session, c.id, d.verdict) : ""}${signalsPanel(d)}${orders(d)}${alerts(d)}</div>
  <div>${facts(d)}${profilePanel(d)}${providersPanel(d)}${personalData(session, d)}</div>
</div>`,
  });
}
