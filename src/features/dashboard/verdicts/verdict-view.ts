/**
 * "Right" / "Not a VIP" on a VIP, as the customer page and the alert log show it: the current
 * verdict (which, who, when, where) and two buttons, each a POST form with the session's CSRF
 * token. The pressed state is `aria-pressed`, so a screen reader hears which one holds.
 */
import type { VerdictSource, VerdictValue } from "../../../db/schema.js";
import { channelNamed } from "../../alerts/channels/channel-registry.js";
import type { VerdictView } from "../../verdicts/list-verdicts.js";
import { VERDICT_LABELS, VERDICTS } from "../../verdicts/verdict-links.js";
import { timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";

const SOURCES = { dashboard: "in the dashboard", cli: "from the command line" } as const;

/** Where a verdict was given: the dashboard, the CLI, or a channel's alert ("from the chat alert"). */
function sourceText(source: VerdictSource): string {
  if (source === "dashboard" || source === "cli") return SOURCES[source];
  return `from the ${channelNamed(source).shortLabel.toLowerCase()} alert`;
}

export function verdictPath(customerId: string): string {
  return `/customers/${customerId}/verdict`;
}

/** "Not a VIP, by ada@acme.com in the dashboard, 3 Nov 2026 14:05" (or "No verdict yet"). */
export function verdictSummary(v: VerdictView | undefined, session: DashboardSession): SafeHtml {
  if (!v) return html`<span class="muted">No verdict yet</span>`;
  const who =
    v.givenBy === null ? "" : v.givenBy === session.userEmail ? "by you " : `by ${v.givenBy} `;
  const cls = v.verdict === "right" ? "ok" : "bad";
  return html`<span class="badge ${cls}">${VERDICT_LABELS[v.verdict]}</span> <span class="muted small">${who}${sourceText(v.source)}, ${timeTag(v.givenAt)}</span>`;
}

/** The two buttons; `back` is where the form returns (this page). */
export function verdictButtons(
  session: DashboardSession,
  customerId: string,
  current: VerdictView | undefined,
  back: string,
  label: string,
): SafeHtml {
  const button = (verdict: VerdictValue) =>
    html`<form class="inline" method="post" action="${verdictPath(customerId)}">${csrfField(session)}<input type="hidden" name="verdict" value="${verdict}"><input type="hidden" name="back" value="${back}"><button type="submit" class="secondary small" aria-pressed="${current?.verdict === verdict ? "true" : "false"}" aria-label="${VERDICT_LABELS[verdict]}: ${label}">${VERDICT_LABELS[verdict]}</button></form>`;
  return html`<div class="actions verdict-buttons">${VERDICTS.map(button)}</div>`;
}

/** The customer page's panel: the question, the current verdict and the buttons. */
export function verdictPanel(
  session: DashboardSession,
  customerId: string,
  current: VerdictView | undefined,
): SafeHtml {
  return html`<section class="panel" aria-labelledby="verdict-title" id="verdict">
  <h2 id="verdict-title">Is this customer a VIP?</h2>
  <p>${verdictSummary(current, session)}</p>
  ${verdictButtons(session, customerId, current, `/customers/${customerId}`, "is this customer a VIP?")}
  <p class="muted small">Your verdicts show how precise the VIP threshold is (Settings → Alerts). The latest one counts.</p>
</section>`;
}
