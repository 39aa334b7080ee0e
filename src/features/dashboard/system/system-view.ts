/** Settings → System: the account's enrichments and alerts that gave up, each with Retry. */

import { CHANNEL_LABELS as CHANNEL_LABEL } from "../../alerts/channels/channel-registry.js";
import { providerLabel } from "../../enrichment/providers/provider-registry.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { noProvidersNotice } from "../html/enrichment-sources.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import type { GivenUpAlert, GivenUpEnrichment } from "./list-given-up.js";

export interface SystemProps {
  session: DashboardSession;
  enrichments: GivenUpEnrichment[];
  alerts: GivenUpAlert[];
  notice: Notice | null;
  server: ServerSetup;
}

/** What whoever runs the server configured, read from its environment. */
export interface ServerSetup {
  /** Configured enrichment providers, by name. */
  providers: readonly string[];
  emailEnabled: boolean;
  storeKeySet: boolean;
}

/** The server's notices in full: what is missing and which variable turns it on. */
function serverPanel(server: ServerSetup, threshold: number): SafeHtml {
  return html`<section class="panel" aria-labelledby="server-title" id="server">
  <h2 id="server-title">This server</h2>
  <p class="muted small">Set by whoever runs Velvet, with environment variables and a restart (all of them are in <code>docs/configuration.md</code>).</p>
  ${noProvidersNotice(server.providers, threshold)}
  <dl class="facts">
    <dt>Enrichment providers</dt><dd>${server.providers.length === 0 ? "None: offline signals only" : server.providers.map(providerLabel).join(", ")}</dd>
    <dt>E-mail</dt><dd>${server.emailEnabled ? "Set up: alerts, invitations and links are mailed" : html`Not set up (<code>SMTP_URL</code>): e-mail alerts are kept, shown as waiting, and sent once it is set (they wait up to 7 days)`}</dd>
    <dt>Store connections</dt><dd>${server.storeKeySet ? "Possible: credentials are kept encrypted" : html`Not possible yet: <code>STORE_TOKEN_KEY</code> (32 random bytes, the same on every Velvet process) is not set`}</dd>
  </dl>
</section>`;
}

function retryButton(session: DashboardSession, kind: string, id: string, label: string): SafeHtml {
  return html`<form class="inline" method="post" action="/settings/system/retry">${csrfField(session)}<input type="hidden" name="kind" value="${kind}"><input type="hidden" name="id" value="${id}"><button type="submit" class="secondary small" aria-label="${label}">Retry</button></form>`;
}

export function systemView(p: SystemProps): SafeHtml {
  const { session } = p;
  return page({
    title: "System",
    session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings</div>
${pageHead("System", "What this server has set up, and work that gave up after its last attempt. Fix the cause (a provider key, a webhook), then retry: it runs again at once.")}
${settingsTabs("system", session.role)}
${notice(p.notice)}
${serverPanel(p.server, session.vipThreshold)}
<section class="panel" aria-labelledby="enrichments-title">
  <h2 id="enrichments-title">Enrichments that gave up</h2>
  ${
    p.enrichments.length === 0
      ? html`<p class="muted">None. Every customer's enrichment completed or is still running.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Customer</th><th scope="col">Why it stopped</th><th scope="col">When</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
    <tbody>${p.enrichments.map(
      (e) => html`<tr>
      <td class="primary-cell"><a href="/customers/${e.customerId}">${e.name}</a><div class="muted small wrap-anywhere">${e.email}</div></td>
      <td data-label="Why it stopped" class="block wrap-anywhere">${e.lastError ?? html`<span class="muted">—</span>`}</td>
      <td data-label="When" class="nowrap">${timeTag(e.failedAt)}</td>
      <td>${retryButton(session, "enrichment", e.customerId, `Retry the enrichment of ${e.name}`)}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
</section>
<section class="panel" aria-labelledby="alerts-title">
  <h2 id="alerts-title">Alerts that gave up</h2>
  ${
    p.alerts.length === 0
      ? html`<p class="muted">None. Every VIP alert was delivered or is still being tried.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Customer</th><th scope="col">Channel</th><th scope="col">Why it stopped</th><th scope="col" class="num">Attempts</th><th scope="col">Created</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
    <tbody>${p.alerts.map(
      (a) => html`<tr>
      <td class="primary-cell"><a href="/customers/${a.customerId}">${a.name}</a></td>
      <td data-label="Channel" class="block">${CHANNEL_LABEL[a.channel]}<div class="muted small wrap-anywhere">${a.target}</div></td>
      <td data-label="Why it stopped" class="block wrap-anywhere">${a.lastError ?? html`<span class="muted">—</span>`}</td>
      <td data-label="Attempts" class="num">${a.attempts}</td>
      <td data-label="Created" class="nowrap">${timeTag(a.createdAt)}</td>
      <td>${retryButton(session, "alert", a.alertId, `Retry the ${CHANNEL_LABEL[a.channel]} alert for ${a.name}`)}</td>
    </tr>`,
    )}</tbody>
  </table></div>`
  }
</section>`,
  });
}
