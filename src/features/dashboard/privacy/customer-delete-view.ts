/** The confirmation before a customer's data is deleted: exactly what goes and what stays. */

import type { CustomerDetail } from "../customers/get-customer-detail.js";
import { pageHead } from "../html/components.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function customerDeleteView(session: DashboardSession, d: CustomerDetail): SafeHtml {
  const c = d.customer;
  const name = `${c.first_name} ${c.last_name}`.trim() || c.email;
  const attempts = d.alerts.reduce((sum, a) => sum + a.attemptLog.length, 0);
  const goes = [
    `Their details: ${c.email}, name${c.phone ? ", phone" : ""} and address`,
    plural(d.orderCount, "order", "orders"),
    d.enrichment ? "The enrichment: score, every signal and the merged profile" : null,
    d.providers.length > 0
      ? `${plural(d.providers.length, "data source's answer", "data sources' answers")} (${d.providers.map((p) => p.provider).join(", ")}), raw answers included`
      : null,
    d.alerts.length > 0
      ? `${plural(d.alerts.length, "VIP alert", "VIP alerts")} with ${plural(attempts, "delivery record", "delivery records")}`
      : null,
    "Any enrichment or alert still waiting to run",
  ].filter((line): line is string => line !== null);
  return page({
    title: `Delete ${name}'s data`,
    session,
    section: "customers",
    body: html`<div class="breadcrumb"><a href="/customers">Customers</a> › <a href="/customers/${c.id}">${name}</a> ›</div>
${pageHead(`Delete ${name}'s data?`, "Use this when the person asks you to delete what you hold about them. It cannot be undone.")}
<section class="panel" aria-labelledby="goes-title">
  <h2 id="goes-title">What is deleted</h2>
  <ul class="goes">${goes.map((line) => html`<li>${line}</li>`)}</ul>
  <h2>What stays</h2>
  <p>The charge for their enrichment stays on your bill (amount, price and month) without anything that identifies them. The audit log records that a customer was deleted, by their id only.</p>
  <p class="muted">If they order again later, they are a new customer: enriched and charged again.</p>
  <div class="actions">
    <form class="inline" method="post" action="/customers/${c.id}/delete">${csrfField(session)}<button type="submit" class="danger">Delete this customer's data</button></form>
    <a class="button secondary" href="/customers/${c.id}">Cancel</a>
  </div>
</section>`,
  });
}
