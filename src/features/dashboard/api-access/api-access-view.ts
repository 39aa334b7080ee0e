/** Settings → Integrations → API Access. */
import type { ApiKeySummary } from "../../api-keys/list-api-keys.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { integrationsNav } from "../stores/stores-view.js";
import { curlExample, EXAMPLE_OUTCOME } from "./curl-example.js";
import type { FlashedKey } from "./key-flash.js";

export interface ApiAccessProps {
  session: DashboardSession;
  keys: ApiKeySummary[];
  newKey: FlashedKey | null;
  welcome: boolean;
  notice: Notice | null;
  publicBaseUrl: string;
}

function newKeyBox(key: FlashedKey, welcome: boolean): SafeHtml {
  return html`<section class="secret-box" aria-labelledby="new-key-title">
  <h2 id="new-key-title">${welcome ? "Your account is ready: here is your first API key" : "Your new API key"}</h2>
  <div class="secret-row">
    <code class="secret" id="new-key">${key.apiKey}</code>
    <button type="button" class="secondary copy-button" data-copy="new-key">Copy key</button>
  </div>
  <p><strong>Copy it now: it will not be shown again.</strong> Keep it secret, like a password:
  store it in your commerce platform's secret settings, never in a web page or an app.</p>
</section>`;
}

function keyRow(session: DashboardSession, k: ApiKeySummary): SafeHtml {
  const active = k.status === "active";
  return html`<tr>
  <td class="primary-cell" data-label="Key"><code>${k.display}</code></td>
  <td data-label="Created" class="nowrap">${timeTag(Date.parse(k.createdAt))}</td>
  <td data-label="Last used" class="nowrap">${timeTag(k.lastUsedAt === null ? null : Date.parse(k.lastUsedAt), true, "Never")}</td>
  <td data-label="Status">${
    active
      ? html`<span class="badge ok">Active</span>`
      : html`<span class="badge">Revoked</span> <span class="muted small">${timeTag(Date.parse(k.revokedAt ?? k.createdAt))}</span>`
  }</td>
  <td data-label="Actions">${
    active
      ? html`<div class="actions">
    <form class="inline" method="post" action="/settings/integrations/keys/${k.keyId}/regenerate" data-confirm="Regenerate ${k.display}? The old key stops working at once.">${csrfField(session)}<button type="submit" class="secondary small" aria-label="Regenerate ${k.display}">Regenerate</button></form>
    <form class="inline" method="post" action="/settings/integrations/keys/${k.keyId}/revoke" data-confirm="Revoke ${k.display}? Requests using it will be refused at once.">${csrfField(session)}<button type="submit" class="danger small" aria-label="Revoke ${k.display}">Revoke</button></form>
  </div>`
      : ""
  }</td>
</tr>`;
}

export function apiAccessView(p: ApiAccessProps): SafeHtml {
  const active = p.keys.filter((k) => k.status === "active").length;
  const example = curlExample(p.publicBaseUrl, p.newKey?.apiKey ?? null);
  const generate = html`<form method="post" action="/settings/integrations/keys">${csrfField(p.session)}<button type="submit">Generate a new key</button></form>`;
  return page({
    title: "API Access",
    session: p.session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings › Integrations</div>
${pageHead("API Access", "Your store sends orders to Velvet with an API key.", generate)}
${settingsTabs("integrations", p.session.role)}
${integrationsNav("api")}
${notice(p.notice)}
${p.newKey ? newKeyBox(p.newKey, p.welcome) : ""}
<section class="panel" aria-labelledby="keys-title">
  <div class="panel-head"><h2 id="keys-title">API keys</h2><span class="muted small">${active} active</span></div>
  ${
    p.keys.length === 0 || active === 0
      ? html`<p class="muted">You have no active key, so no platform can send orders yet. Generate one to get started.</p>`
      : ""
  }
  ${
    p.keys.length > 0
      ? html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Key</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.keys.map((k) => keyRow(p.session, k))}</tbody>
  </table></div>`
      : ""
  }
</section>
<section class="panel" aria-labelledby="curl-title">
  <div class="panel-head"><h2 id="curl-title">Send an order</h2><button type="button" class="secondary small copy-button" data-copy="curl-example">Copy</button></div>
  <p class="muted">Paste this into a terminal${p.newKey ? "" : ", with your key in the first line"}. Velvet answers with the customer's id and starts enriching them; they appear under <a href="/customers">Customers</a> within seconds. ${EXAMPLE_OUTCOME}</p>
  <pre class="code" id="curl-example" tabindex="0" aria-label="Example request">${example}</pre>
  <p class="muted small">The key goes in <code>Authorization: Bearer …</code> (or <code>x-api-key</code>). Only <code>email</code>, <code>firstName</code> and <code>lastName</code> are required.</p>
</section>`,
  });
}
