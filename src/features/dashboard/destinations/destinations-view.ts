/**
 * Settings → Integrations → Destinations: the account's destinations with how their deliveries
 * stand (test, remove, open the log), and a form per registered kind, built from the kind's
 * declaration (destination-declaration.ts). What a kind reveals once (a webhook's signing
 * secret) is shown on the answer to the form, once. A destination its receiver disabled
 * (410 Gone) says so, with when and the answer, and offers "Enable again".
 */
import type { DestinationEvent, StorePlatform } from "../../../db/schema.js";
import type {
  DestinationDeclaration,
  DestinationField,
} from "../../destinations/destination-declaration.js";
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
  /** The registered kinds, each with its add form. */
  kinds: readonly DestinationDeclaration[];
  /** A destination just added whose kind reveals something once (a webhook's secret). */
  added?: { kind: DestinationDeclaration; destinationId: string; revealed: string };
  /** A refused form: its kind, what was typed (never a secret) and why. */
  refused?: { kind: string; values: Record<string, string>; error: string };
  /** The account's connected stores, for a kind's store field. */
  stores: { connectionId: string; shop: string; platform: StorePlatform }[];
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

function row(
  session: DashboardSession,
  labels: ReadonlyMap<string, string>,
  d: DestinationSummary,
): SafeHtml {
  const base = `${DESTINATIONS_PATH}/${d.destinationId}`;
  return html`<tr>
  <td class="primary-cell" data-label="Destination"><a href="${base}">${d.target}</a><div class="muted small">${labels.get(d.kind) ?? d.kind}${d.secretHint ? html` · secret <code>${d.secretHint}</code>` : ""}</div></td>
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

/** A declaration's prose: `code` and **strong** marked, everything else text. */
function prose(text: string): SafeHtml[] {
  return text
    .split(/(`[^`]+`|\*\*[^*]+\*\*)/)
    .map((part) =>
      part.startsWith("`") && part.endsWith("`") && part.length > 1
        ? html`<code>${part.slice(1, -1)}</code>`
        : part.startsWith("**") && part.endsWith("**") && part.length > 3
          ? html`<strong>${part.slice(2, -2)}</strong>`
          : html`${part}`,
    );
}

function formField(p: DestinationsProps, kind: DestinationDeclaration, f: DestinationField) {
  if (f.type === "store") {
    const options = p.stores
      .filter((s) => s.platform === f.platform)
      .map((s) => html`<option value="${s.connectionId}">${s.shop}</option>`);
    return html`<label for="f-${f.name}">${f.label}</label><select id="f-${f.name}" name="${f.name}">${options}</select>`;
  }
  const typed = p.refused?.kind === kind.kind ? p.refused.values[f.name] : undefined;
  return field({
    name: f.name,
    label: f.label,
    type: f.type === "secret" ? "password" : f.type,
    value: f.type === "secret" ? "" : (typed ?? f.default ?? ""),
    placeholder: f.placeholder,
    help: f.formHelp,
    required: true,
    autocomplete: "off",
  });
}

/** A kind's add form; in place of it, what to connect first when a store field has none. */
function addForm(p: DestinationsProps, kind: DestinationDeclaration): SafeHtml {
  const missing = kind.fields.find(
    (f) => f.type === "store" && !p.stores.some((s) => s.platform === f.platform),
  );
  const checks = DESTINATION_EVENTS.filter((e) => kind.events.includes(e)).map(
    (e) =>
      html`<label class="check"><input type="checkbox" name="events" value="${e}" checked> <code>${e}</code> <span class="muted small">${EVENT_HELP[e]}</span></label>`,
  );
  return html`<section class="panel" aria-labelledby="add-${kind.kind}-title">
  <div class="panel-head"><h2 id="add-${kind.kind}-title">${kind.form.title}</h2></div>
  <p class="muted">${prose(kind.form.intro)}</p>
  ${
    p.refused?.kind === kind.kind
      ? html`<div class="notice error" role="alert"><p>${p.refused.error}</p></div>`
      : html``
  }
  ${
    missing?.type === "store"
      ? html`<p class="muted">Connect a ${missing.platformLabel} store first (Integrations › Stores).</p>`
      : html`<form method="post" action="${DESTINATIONS_PATH}/${kind.kind}">${csrfField(p.session)}
    ${kind.fields.map((f) => formField(p, kind, f))}
    ${kind.form.chooseEvents ? html`<fieldset><legend>Events</legend>${checks}</fieldset>` : ""}
    <button type="submit">${kind.form.submit}</button>
  </form>`
  }
</section>`;
}

function revealedNotice(added: NonNullable<DestinationsProps["added"]>): SafeHtml {
  const reveals = added.kind.reveals;
  if (reveals === undefined) return html``;
  return html`<div class="notice success" role="status"><p>${added.kind.label} added. Its ${reveals.label.toLowerCase()}, shown this once: ${reveals.keep}.</p><p><code class="secret">${added.revealed}</code></p></div>`;
}

export function destinationsView(p: DestinationsProps): SafeHtml {
  const labels = new Map<string, string>(p.kinds.map((k) => [k.kind, k.label]));
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
${p.added ? revealedNotice(p.added) : ""}
<section class="panel" aria-labelledby="destinations-title">
  <div class="panel-head"><h2 id="destinations-title">Your destinations</h2></div>
  ${
    p.destinations.length === 0
      ? html`<p class="muted">No destination yet.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Destination</th><th scope="col">Events</th><th scope="col">Deliveries</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.destinations.map((d) => row(p.session, labels, d))}</tbody>
  </table></div>`
  }
</section>
${p.kinds.map((kind) => addForm(p, kind))}`,
  });
}
