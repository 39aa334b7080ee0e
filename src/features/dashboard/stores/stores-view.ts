/** Settings → Integrations → Stores: connections with their state, and the connect forms. */
import type { StoreConnectionState } from "../../../db/schema.js";
import { estimateLines } from "../../store-sync/describe-estimate.js";
import type { BackfillEstimate } from "../../store-sync/estimate-backfill.js";
import type { ConnectionView } from "../../store-sync/list-connections.js";
import {
  describeWebhooks,
  type PollIntervals,
  seconds,
} from "../../store-webhooks/describe-webhooks.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { field } from "../html/fields.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import type { ConnectForm, KeptValues, SecretField } from "./connect-form.js";

export const STORES_PATH = "/settings/integrations/stores";

export interface StoresProps {
  session: DashboardSession;
  connections: ConnectionView[];
  notice: Notice | null;
  /** The form that was sent and refused: its identifiers, and which secrets to enter again. */
  refused?: { form: ConnectForm; kept: KeptValues; retype: SecretField[]; error: string };
  /** "Preview cost" was pressed: the form as refused keeps it, and the connection's dry run. */
  preview?: {
    form: ConnectForm;
    kept: KeptValues;
    retype: SecretField[];
    estimate: BackfillEstimate;
  };
  /** Polling's two intervals: without webhooks, and beside them (reconciliation). */
  intervals: PollIntervals;
  /** False when the server has no STORE_TOKEN_KEY: connecting is refused, said before typing. */
  canConnect: boolean;
}

/** Said at the top of the page, before anyone types a token, when connecting cannot work. */
function noKeyNotice(canConnect: boolean): SafeHtml {
  if (canConnect) return html``;
  return html`<div class="notice warn" role="status" id="no-store-key"><p><strong>Connecting a store is not possible on this server yet.</strong> Velvet keeps store credentials encrypted and needs a key for that, which the person who runs Velvet sets: <code>STORE_TOKEN_KEY</code>, 32 random bytes (<code>openssl rand -base64 32</code>), the same on every Velvet process, then a restart. Until then the forms below are disabled.</p></div>`;
}

const WEBHOOK_BADGES: Record<ConnectionView["webhooks"], { label: string; cls: string }> = {
  active: { label: "Real time", cls: "ok" },
  failing: { label: "Polling: webhooks failing", cls: "warn" },
  off: { label: "Polling", cls: "" },
};

const STATES: Record<StoreConnectionState, { label: string; cls: string }> = {
  active: { label: "Syncing", cls: "ok" },
  paused: { label: "Paused", cls: "warn" },
  broken: { label: "Broken", cls: "bad" },
};

/** Integrations has three pages: API Access (push), Stores (pull), Destinations (hand on). */
export function integrationsNav(active: "api" | "stores" | "destinations"): SafeHtml {
  const link = (key: "api" | "stores" | "destinations", href: string, label: string) =>
    html`<a href="${href}"${key === active ? html` aria-current="page"` : ""}>${label}</a>`;
  return html`<nav class="subnav" aria-label="Integrations">${link("api", "/settings/integrations", "API Access")}${link("stores", STORES_PATH, "Stores")}${link("destinations", "/settings/integrations/destinations", "Destinations")}</nav>`;
}

function action(
  session: DashboardSession,
  c: ConnectionView,
  verb: string,
  label: string,
  cls: string,
  confirm?: string,
): SafeHtml {
  return html`<form class="inline" method="post" action="${STORES_PATH}/${c.connectionId}/${verb}"${confirm ? html` data-confirm="${confirm}"` : ""}>${csrfField(session)}<button type="submit" class="${cls} small" aria-label="${label} ${c.shop}">${label}</button></form>`;
}

function connectionRow(
  session: DashboardSession,
  c: ConnectionView,
  intervals: PollIntervals,
): SafeHtml {
  const state = STATES[c.state];
  const hooks =
    c.state === "active" ? WEBHOOK_BADGES[c.webhooks] : { label: "Not taken", cls: "warn" };
  return html`<tr>
  <td class="primary-cell" data-label="Store">${c.shop}<div class="muted small">${c.platform === "shopify" ? "Shopify" : "WooCommerce"} · credentials <code>${c.credentials}</code></div></td>
  <td data-label="State"><span class="badge ${state.cls}">${state.label}</span>${
    c.lastError ? html`<div class="error-text small">${c.lastError}</div>` : ""
  }</td>
  <td data-label="Orders arrive"><span class="badge ${hooks.cls}">${hooks.label}</span><div class="muted small">${describeWebhooks(c, intervals)}</div></td>
  <td data-label="Last sync" class="nowrap">${timeTag(c.lastSyncAt === null ? null : Date.parse(c.lastSyncAt), true, "Not yet")}</td>
  <td data-label="Orders synced">${c.ordersSynced}${c.ordersSkipped > 0 ? html` <span class="muted small">(${c.ordersSkipped} skipped)</span>${skipList(c.skipReasons)}` : ""}</td>
  <td data-label="Actions"><div class="actions">
    ${c.state === "active" ? action(session, c, "pause", "Pause", "secondary") : action(session, c, "resume", "Resume", "secondary")}
    ${action(session, c, "disconnect", "Disconnect", "danger", `Disconnect ${c.shop}? Velvet removes its webhooks from the store, stops reading its orders and forgets its credentials; the orders already synced stay.`)}
  </div></td>
</tr>`;
}

/** Why orders were skipped: test orders, unpaid ones, forgotten customers… */
function skipList(reasons: Record<string, number>): SafeHtml | string {
  const entries = Object.entries(reasons);
  if (entries.length === 0) return "";
  return html`<div class="muted small">${entries.map(([reason, count], i) => html`${i > 0 ? ", " : ""}${reason}: ${count}`)}</div>`;
}

function backfillField(values: KeptValues, form: ConnectForm): SafeHtml {
  return field({
    name: `${form}-backfill`,
    label: "Read past orders (days)",
    type: "number",
    min: 0,
    max: 3650,
    value: values.backfillDays ?? "90",
    help: "Orders from before connecting are scanned for VIPs without alerting anyone; 0 reads only new orders.",
  });
}

/** What connecting would read and cost, said as `velvet store connect … --dry-run` says it. */
function previewPanel(
  form: ConnectForm,
  estimate: BackfillEstimate,
  retype: SecretField[],
): SafeHtml {
  const lines = estimateLines(estimate, 'fewer days in "Read past orders"');
  const again =
    retype.length > 0 ? html`Enter the ${secretNames(retype)} again and press` : "Press";
  return html`<div class="notice info" role="status" id="cost-preview-${form}"><p><strong>Before connecting: nothing was saved.</strong> ${again} Connect to connect with these settings.</p><ul>${lines.map((line) => html`<li>${line}</li>`)}</ul></div>`;
}

const SECRET_NAMES: Record<SecretField, string> = {
  client_secret: "client secret",
  token: "Admin API access token",
  webhook_secret: "webhook secret",
  secret: "consumer secret",
};

function secretNames(retype: SecretField[]): string {
  return retype.map((name) => SECRET_NAMES[name]).join(" and ");
}

/** Said under a secret field the page left empty. */
const RETYPE_HELP = "Enter it again: Velvet never sends a secret back to the page.";

/**
 * A secret's field: always empty. After a refusal or a preview, the one that was filled in says
 * so and takes the focus, so it is typed again where it was.
 */
function secretField(
  name: SecretField,
  label: string,
  retype: SecretField[],
  help: string | undefined,
  required = false,
): SafeHtml {
  const again = retype.includes(name);
  return field({
    name,
    label,
    type: "password",
    value: "",
    autocomplete: "off",
    required,
    help: again
      ? help
        ? html`<strong>${RETYPE_HELP}</strong> ${help}`
        : html`<strong>${RETYPE_HELP}</strong>`
      : help,
    autofocus: again && retype[0] === name,
  });
}

function connectForms(p: StoresProps): SafeHtml {
  const refused = p.refused;
  const preview = p.preview;
  const sent = (form: ConnectForm) =>
    refused?.form === form ? refused : preview?.form === form ? preview : undefined;
  const error = (form: ConnectForm) =>
    refused?.form === form
      ? html`<div class="notice error" role="alert"><p>${refused.error}</p>${
          refused.retype.length > 0
            ? html`<p>Enter the ${secretNames(refused.retype)} again: Velvet never sends a secret back to the page.</p>`
            : ""
        }</div>`
      : "";
  const estimate = (form: ConnectForm) =>
    preview?.form === form ? previewPanel(form, preview.estimate, preview.retype) : "";
  const shopify = sent("shopify")?.kept ?? {};
  const woo = sent("woocommerce")?.kept ?? {};
  const shopifyRetype = sent("shopify")?.retype ?? [];
  const wooRetype = sent("woocommerce")?.retype ?? [];
  return html`<section class="panel" aria-labelledby="connect-shopify-title">
  <div class="panel-head"><h2 id="connect-shopify-title">Connect a Shopify store</h2></div>
  <p class="muted">In Shopify's Dev Dashboard: create an app; in its version, give it the <code>read_orders</code>, <code>read_customers</code> and <code>read_all_orders</code> scopes; request access to protected customer data (name, email, phone, address); install it on your shop; then copy its client id and secret from the app's Settings.</p>
  ${error("shopify")}
  <form method="post" action="${STORES_PATH}/shopify">${csrfField(p.session)}<fieldset class="plain"${p.canConnect ? "" : html` disabled`}><legend class="visually-hidden">Shopify store</legend>
    ${field({ name: "shop", label: "Shop domain", value: shopify.shop ?? "", placeholder: "acme.myshopify.com", required: true, autocomplete: "off", help: "acme.myshopify.com, just acme, or the address of your Shopify admin: any of them works." })}
    ${field({ name: "client_id", label: "Client ID", value: shopify.clientId ?? "", autocomplete: "off" })}
    ${secretField("client_secret", "Client secret", shopifyRetype, "Stored encrypted; only its last 4 characters are shown again. Velvet gets and renews the app's access token itself.")}
    ${secretField("token", "Or: Admin API access token", shopifyRetype, "Only for an app made in the Shopify admin before 2026 (shpat_…); leave the client id and secret empty.")}
    ${secretField("webhook_secret", "With a token: the app's API secret key", shopifyRetype, "Shopify signs the app's webhooks with it, so Velvet can take orders as they are placed; without it Velvet reads the orders by polling.")}
    ${backfillField(shopify, "shopify")}
    <div class="actions"><button type="submit">Connect Shopify</button> <button type="submit" name="preview" value="1" class="secondary">Preview cost</button></div>
  </fieldset></form>
  ${estimate("shopify")}
</section>
<section class="panel" aria-labelledby="connect-woo-title">
  <div class="panel-head"><h2 id="connect-woo-title">Connect a WooCommerce store</h2></div>
  <p class="muted">In WordPress: WooCommerce › Settings › Advanced › REST API › Add key, with <strong>Read/Write</strong> permission: Velvet reads the orders and creates its two order webhooks (with <strong>Read</strong> only, it reads the orders by polling). The store must be served over HTTPS.</p>
  ${error("woocommerce")}
  <form method="post" action="${STORES_PATH}/woocommerce">${csrfField(p.session)}<fieldset class="plain"${p.canConnect ? "" : html` disabled`}><legend class="visually-hidden">WooCommerce store</legend>
    ${field({ name: "url", label: "Store address", type: "url", value: woo.url ?? "", placeholder: "https://shop.example", required: true, autocomplete: "off" })}
    ${field({ name: "key", label: "Consumer key", value: woo.key ?? "", placeholder: "ck_…", required: true, autocomplete: "off" })}
    ${secretField("secret", "Consumer secret", wooRetype, undefined, true)}
    ${backfillField(woo, "woocommerce")}
    <div class="actions"><button type="submit">Connect WooCommerce</button> <button type="submit" name="preview" value="1" class="secondary">Preview cost</button></div>
  </fieldset></form>
  ${estimate("woocommerce")}
</section>`;
}

export function storesView(p: StoresProps): SafeHtml {
  return page({
    title: "Stores",
    session: p.session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings › Integrations</div>
${pageHead("Stores", `Velvet takes your store's orders as they are placed, through the store's webhooks, and reads the store itself to catch anything a webhook missed (every ${seconds(p.intervals.reconcileIntervalMs)}; every ${seconds(p.intervals.intervalMs)} while webhooks are off): no code to write.`)}
${settingsTabs("integrations", p.session.role)}
${integrationsNav("stores")}
${noKeyNotice(p.canConnect)}
${notice(p.notice)}
<section class="panel" aria-labelledby="connections-title">
  <div class="panel-head"><h2 id="connections-title">Connected stores</h2></div>
  ${
    p.connections.length === 0
      ? html`<p class="muted">No store is connected yet.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Store</th><th scope="col">State</th><th scope="col">Orders arrive</th><th scope="col">Last sync</th><th scope="col">Orders synced</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${p.connections.map((c) => connectionRow(p.session, c, p.intervals))}</tbody>
  </table></div>`
  }
</section>
${connectForms(p)}`,
  });
}
