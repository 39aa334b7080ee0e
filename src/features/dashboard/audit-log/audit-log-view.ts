/** Settings → Audit log: who did what and when, newest first, 50 a page. */
import { SETTING_DETAIL_LABELS } from "../../accounts/settings/account-settings.js";
import { auditActionLabel, auditDetailsText } from "../../audit/audit-actions.js";
import type { AuditEventView, AuditPage } from "../../audit/list-audit-events.js";
import { pageHead, pager, withQuery } from "../html/components.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";

const ACTOR_KIND = { user: "Dashboard", cli: "Command line", system: "Velvet" } as const;

function subject(e: AuditEventView): SafeHtml | string {
  if (e.subject === null) return "";
  if (e.action.startsWith("customer.")) return html`customer <code>${e.subject}</code>`;
  if (e.action.startsWith("api_key.")) return html`key <code>${e.subject}</code>`;
  return html`<code>${e.subject}</code>`;
}

function row(e: AuditEventView): SafeHtml {
  return html`<tr>
  <td class="nowrap" data-label="When">${timeTag(Date.parse(e.occurredAt))}</td>
  <td class="primary-cell" data-label="What">${auditActionLabel(e.action)} ${subject(e)}</td>
  <td data-label="Who">${e.actor} <span class="muted small">${ACTOR_KIND[e.actorKind]}</span></td>
  <td data-label="Details" class="small muted wrap-anywhere">${auditDetailsText(e.details, SETTING_DETAIL_LABELS)}</td>
</tr>`;
}

export function auditLogView(session: DashboardSession, audit: AuditPage): SafeHtml {
  return page({
    title: "Audit log",
    session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings</div>
${pageHead("Audit log", "Every sign-in, key change, settings change, export and deletion in this account. Customers are named by id only.")}
${settingsTabs("audit", session.role)}
<section class="panel">
${
  audit.events.length === 0
    ? html`<p class="muted">Nothing recorded yet.</p>`
    : html`<div class="table-wrap"><table class="stack">
  <caption class="visually-hidden">Audit log</caption>
  <thead><tr><th scope="col">When</th><th scope="col">What</th><th scope="col">Who</th><th scope="col">Details</th></tr></thead>
  <tbody>${audit.events.map(row)}</tbody>
</table></div>`
}
${pager({
  page: audit.page,
  pageSize: audit.pageSize,
  total: audit.total,
  noun: "event",
  href: (n) => withQuery("/settings/audit", { page: n > 1 ? n : null }),
})}
</section>`,
  });
}
