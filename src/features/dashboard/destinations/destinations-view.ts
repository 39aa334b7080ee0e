/**
 * Settings → Integrations → Destinations: the account's destinations with how their deliveries
 * stand (test, remove, open the log), and the form that adds a signed webhook. A new webhook's
 * signing secret is shown on the answer to the form, once. A destination its receiver disabled
 * (410 Gone) says so, with when and the answer, and offers "Enable again".
 */
import type { DestinationEvent } from "../../../db/schema.js";
import { DESTINATION_EVENTS } from "../../destinations/destination-events.js";
import type { DestinationSummary } from "../../destinations/list-destinations.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { field } from "../html/fields.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { integrationsNav } from "../stores/stores-view.js";

export const DESTINATIONS_PATH = "/settings/integrations/destinations";

export const EVENT_HELP: Record<DestinationEvent, string> = {
  "customer.enriched": "every finished enrichment: score, threshold, VIP or not, the reasons",
  "customer.vip": "when a customer becomes a VIP (at enrichment, or when later orders add up)",
  "customer.not_vip":
    "when a VIP's counted spend falls back under the line (with customer.vip: Shopify's tag comes off)",
  "customer.forgotten": "after an erasure, with the id, e-mail and why, so you can erase too",
};

export interface DestinationsProps {
  session: DashboardSession;
  destinations: DestinationSummary[];
  notice: Notice | null;
  /** A webhook just added: its secret, shown this once. */
  added?: { destinationId: string; secret: string };
  refused?: { form: "webhook" | "klaviyo" | "shopify"; url: string; error: string };
  /** The account's connected Shopify stores, for the Shopify form. */
  shops: { connectionId: string; shop: string }[];
  /** Platform API versions this process speaks that are ageing or no longer served. */
  versionWarnings: { stage: "current" | "ageing" | "ended"; text: string }[];
}

function postButton(
  session: DashboardSession,
  path: string,
  label: string,
  cls: string,
  confirm?: string,
) {
  return html`<form class="inline" method="post" action="${path}"${confirm ? html` data-confirm="${confirm}"` : ""}>${csrfField(session)}<button type="submit" class="${cls} small">${label}</button></form>`;
}

function row(session: DashboardSession, d: DestinationSummary): SafeHtml {
  const base = `${DESTINATIONS_PATH}/${d.destinationId}`;
  return html`<tr>
  <td class="primary-cell" data-label="Destination"><a href="${base}">${d.target}</a><div class="muted small">${d.kind === "webhook" ? "Signed webhook" : d.kind}${d.secretHint ? html` · secret <code>${d.secretHint}</code>` : ""}</div></td>
  <td data-label="Events">${d.events.join(", ")}</td>
  <td data-label="Deliveries">${d.delivered} delivered${d.pending > 0 ? html`, ${d.pending} pending` : ""}${d.failed > 0 ? html`, <span class="error-text">${d.failed} failed</span>` : ""}${disabledNote(d)}</td>
  <td data-label="Actions"><div class="actions">
    ${d.disabledAt === null ? "" : postButton(session, `${base}/enable`, "Enable again", "primary")}
    ${postButton(session, `${base}/test`, "Send a test", "secondary")}
    ${postButton(session, `${base}/remove`, "Remove", "danger", `Remove ${d.target}? Nothing more is sent there.`)}
  </div></td>
</tr>`;
}

/** A disabled destination: since when, and the receiver's answer that disabled it. */
function disabledNote(d: DestinationSummary): SafeHtml {
  if (d.disabledAt === null) return html``;
  return html`<p class="error-text small" data-disabled-at="${d.disabledAt}"><strong>Disabled</strong> since <time datetime="${d.disabledAt}">${d.disabledAt.replace("T", " ").slice(0, 16)} UTC</time>: the receiver answered <code>${d.disabledReason ?? "410"}</code>. Events are recorded, not sent, until you enable it again.</p>`;
}

function addForm(p: DestinationsProps): SafeHtml {
  const checks = DESTINATION_EVENTS.map(
    (e) =>
      html`<label class="check"><input type="checkbox" name="events" value="${e}" checked> <code>${e}</code> <span class="muted small">${EVENT_HELP[e]}</span></label>`,
  );
  return html`<section class="panel" aria-labelledby="add-webhook-title">
  <div class="panel-head"><h2 id="add-webhook-title">Add a signed webhook</h2></div>
  <p class="muted">Each event is POSTed as JSON <code>{type, timestamp, data}</code> and signed as the Standard Webhooks specification says (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>): verify it with any Standard Webhooks library. A failed delivery is tried again for up to 3 days under the same <code>webhook-id</code>; a redirect fails at once (give the final URL), and a <code>410 Gone</code> disables the webhook until you enable it again.</p>
  ${refusal(p, "webhook")}
  <form method="post" action="${DESTINATIONS_PATH}/webhook">${csrfField(p.session)}
    ${field({ name: "url", label: "Receiver URL", type: "url", value: p.refused?.form === "webhook" ? p.refused.url : "", placeholder: "https://example.com/hooks/velvet", required: true, autocomplete: "off" })}
    <fieldset><legend>Events</legend>${checks}</fieldset>
    <button type="submit">Add webhook</button>
  </form>
</section>
<section class="panel" aria-labelledby="add-klaviyo-title">
  <div class="panel-head"><h2 id="add-klaviyo-title">Add Klaviyo</h2></div>
  <p class="muted">Each enrichment sets <code>velvet_vip</code>, <code>velvet_score</code> and <code>velvet_reasons</code> on the customer's Klaviyo profile (found or created by e-mail), for your segments and flows; Velvet writes nothing else there. A person's own erasure request deletes their Klaviyo profile; when Velvet's retention or the closing of your Velvet account forgets them, the profile stays and only Velvet's properties are removed. In Klaviyo: Settings › API keys › Create Private API Key, a custom key with <strong>Profiles: Full access</strong> and <strong>Data Privacy: Full access</strong> (without it, an erasure request too only removes Velvet's properties from the profile).</p>
  ${refusal(p, "klaviyo")}
  <form method="post" action="${DESTINATIONS_PATH}/klaviyo">${csrfField(p.session)}
    ${field({ name: "apiKey", label: "Private API key", type: "password", placeholder: "pk_…", required: true, autocomplete: "off", help: "Stored encrypted; only its last 4 characters are shown again." })}
    <button type="submit">Add Klaviyo</button>
  </form>
</section>`;
}

function shopifyForm(p: DestinationsProps): SafeHtml {
  const options = p.shops.map((s) => html`<option value="${s.connectionId}">${s.shop}</option>`);
  return html`<section class="panel" aria-labelledby="add-shopify-title">
  <div class="panel-head"><h2 id="add-shopify-title">Tag VIPs in Shopify</h2></div>
  <p class="muted">A VIP who ordered in a connected Shopify store gets a customer tag (for Flow, discounts, your help desk) and a <code>velvet.vip_score</code> metafield; forgetting a person removes both. The store's token needs the <code>write_customers</code> scope: Velvet checks it with Shopify first.</p>
  ${refusal(p, "shopify")}
  ${
    p.shops.length === 0
      ? html`<p class="muted">Connect a Shopify store first (Integrations › Stores).</p>`
      : html`<form method="post" action="${DESTINATIONS_PATH}/shopify">${csrfField(p.session)}
    <label for="f-connectionId">Store</label><select id="f-connectionId" name="connectionId">${options}</select>
    ${field({ name: "tag", label: "Customer tag", value: "VIP", required: true, autocomplete: "off" })}
    <button type="submit">Tag VIPs in Shopify</button>
  </form>`
  }
</section>`;
}

function refusal(p: DestinationsProps, form: "webhook" | "klaviyo" | "shopify"): SafeHtml {
  return p.refused?.form === form
    ? html`<div class="notice error" role="alert"><p>${p.refused.error}</p></div>`
    : html``;
}

export function destinationsView(p: DestinationsProps): SafeHtml {
  return page({
    title: "Destinations",
    session: p.session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings › Integrations</div>
${pageHead("Destinations", "Where Velvet hands on what it learns: your own systems through signed webhooks, the Shopify customer, and Klaviyo. History (imports, store backfills) reaches them too, marked historical.")}
${settingsTabs("integrations", p.session.role)}
${integrationsNav("destinations")}
${notice(p.notice)}
${p.versionWarnings.map((w) => html`<div class="notice ${w.stage === "ended" ? "error" : "warn"}" role="${w.stage === "ended" ? "alert" : "status"}" data-api-version><p>${w.text}</p></div>`)}
${
  p.added
    ? html`<div class="notice success" role="status"><p>Webhook added. Its signing secret, shown this once: keep it with your receiver.</p><p><code class="secret">${p.added.secret}</code></p></div>`
    : ""
}
<section class="panel" aria-labelledby="destinations-title">
  <div class="panel-head"><h2 id="destinations-title">Your destinations</h2></div>
  ${
    p.destinations.length === 0
      ? html`<p class="muted">No destination yet.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Destination</th><th scope="col">Events</th><th scope="col">Deliveries</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.destinations.map((d) => row(p.session, d))}</tbody>
  </table></div>`
  }
</section>
${addForm(p)}
${shopifyForm(p)}`,
  });
}
