/** One destination's latest deliveries, each with its attempts and a "Send again" button. */
import type { DeliveryLogEntry } from "../../destinations/list-deliveries.js";
import type { DestinationSummary } from "../../destinations/list-destinations.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { integrationsNav } from "../stores/stores-view.js";
import { DESTINATIONS_PATH } from "./destinations-view.js";

const STATUS = {
  pending: "warn",
  delivered: "ok",
  failed: "bad",
} as const;

function deliveryRow(session: DashboardSession, destinationId: string, d: DeliveryLogEntry) {
  const attempts = d.attemptLog.map(
    (a) =>
      html`<li>${timeTag(a.attempted_at)} ${a.outcome}${a.status_code === null ? "" : html` (${a.status_code})`}${a.error ? html` <span class="muted small">${a.error}</span>` : ""}</li>`,
  );
  const resend = d.resendable
    ? html`<form class="inline" method="post" action="${DESTINATIONS_PATH}/${destinationId}/deliveries/${d.id}/resend">${csrfField(session)}<button type="submit" class="secondary small">Send again</button></form>`
    : html`<span class="muted small">content erased</span>`;
  return html`<tr>
  <td class="primary-cell" data-label="Event"><code>${d.event}</code>${d.historical === 1 ? html` <span class="badge">historical</span>` : ""}<div class="muted small">webhook-id <code>${d.id}</code></div></td>
  <td data-label="Status"><span class="badge ${STATUS[d.status]}">${d.status}</span>${d.last_error ? html`<div class="error-text small">${d.last_error}</div>` : ""}</td>
  <td data-label="Attempts">${attempts.length === 0 ? html`<span class="muted">none yet</span>` : html`<ol class="attempts">${attempts}</ol>`}</td>
  <td data-label="Created" class="nowrap">${timeTag(d.created_at)}</td>
  <td data-label="Actions">${resend}</td>
</tr>`;
}

export function deliveryLogView(p: {
  session: DashboardSession;
  destination: DestinationSummary;
  deliveries: DeliveryLogEntry[];
  notice: Notice | null;
}): SafeHtml {
  const d = p.destination;
  return page({
    title: `Deliveries to ${d.target}`,
    session: p.session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings › Integrations › <a href="${DESTINATIONS_PATH}">Destinations</a></div>
${pageHead(d.target, `Its latest ${p.deliveries.length} deliveries, newest first, each with every attempt.`)}
${settingsTabs("integrations", p.session.role)}
${integrationsNav("destinations")}
${notice(p.notice)}
<section class="panel" aria-labelledby="log-title">
  <div class="panel-head"><h2 id="log-title">Deliveries</h2></div>
  ${
    p.deliveries.length === 0
      ? html`<p class="muted">Nothing was sent here yet.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Event</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.deliveries.map((x) => deliveryRow(p.session, d.destinationId, x))}</tbody>
  </table></div>`
  }
</section>`,
  });
}
