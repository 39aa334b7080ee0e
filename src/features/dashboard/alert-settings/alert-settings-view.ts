/** Settings → Alerts: the settings declared for the page (the VIP threshold, the tiers) and where alerts go. */
import { MAX_ALERT_EMAILS } from "../../alerts/alert-settings.js";
import type { Precision } from "../../verdicts/precision.js";
import type { MonthPrecision } from "../../verdicts/precision-history.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { field } from "../html/fields.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { settingPanels } from "../settings/setting-fields.js";
import type { AlertSettingsField, AlertSettingsFormValues } from "./alert-settings-form.js";
import { precisionPanel } from "./precision-panel.js";
import type { ScoreDistribution } from "./score-distribution.js";
import { scoreDistributionPanel } from "./score-distribution-view.js";

export interface AlertSettingsProps {
  session: DashboardSession;
  /** What the form shows: the saved values, or what was typed when it was refused. */
  values: AlertSettingsFormValues;
  errors: Partial<Record<AlertSettingsField, string>>;
  maskedWebhook: string | null;
  emailEnabled: boolean;
  /** Confirmed alert addresses: alerts and the test e-mail go to these. */
  savedEmails: string[];
  /** Saved addresses that await their owner's confirmation. */
  awaiting: string[];
  distribution: ScoreDistribution;
  /** Precision at the threshold from the team's verdicts (null: the account is gone). */
  precision: Precision | null;
  /** Precision at the threshold month by month (verdicts/precision-history.ts). */
  precisionHistory: MonthPrecision[];
  /** Brief notices for whoever runs the server (notices/operator-notice.ts). */
  serverNotices: SafeHtml;
  notice: Notice | null;
}

function awaitingList(p: AlertSettingsProps): SafeHtml {
  if (p.awaiting.length === 0) return html``;
  return html`<section class="panel awaiting" aria-labelledby="awaiting-title">
  <h2 id="awaiting-title">E-mail addresses awaiting confirmation</h2>
  <p class="muted">Alerts go to these addresses only after someone there opens the link we sent (valid 7 days). Until then, alerts go to your confirmed channels.</p>
  <ul>${p.awaiting.map(
    (email) =>
      html`<li><span class="badge warn">Awaiting confirmation</span> ${email} <form method="post" action="/settings/alerts/emails/resend" class="inline">${csrfField(p.session)}<input type="hidden" name="email" value="${email}"><button type="submit" class="secondary">Send again</button></form></li>`,
  )}</ul>
</section>`;
}

export function alertSettingsView(p: AlertSettingsProps): SafeHtml {
  const e = p.errors;
  const saved = p.maskedWebhook;
  return page({
    title: "Alert settings",
    session: p.session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings</div>
${pageHead("Alerts", "When enrichment finds a VIP, Velvet tells your team in chat and by e-mail.")}
${settingsTabs("alerts", p.session.role)}
${notice(p.notice)}
${p.serverNotices}
${Object.keys(e).length > 0 ? notice({ kind: "error", text: "Nothing was saved: please correct the fields marked below." }) : ""}
<form id="webhook-test" method="post" action="/settings/alerts/test">${csrfField(p.session)}</form>
<form id="email-test" method="post" action="/settings/alerts/test-email">${csrfField(p.session)}</form>
<form id="webhook-remove" method="post" action="/settings/alerts/webhook/remove" data-confirm="Remove the chat webhook? Chat alerts stop until you add one again.">${csrfField(p.session)}</form>
<form method="post" action="/settings/alerts" novalidate>
${csrfField(p.session)}
${settingPanels("alerts", p.values.settings, p.errors, p.session.role)}
${p.precision === null ? "" : precisionPanel(p.precision, p.precisionHistory)}
${scoreDistributionPanel(p.distribution, p.session.vipThreshold)}
<section class="panel" aria-labelledby="chat-title">
  <h2 id="chat-title">Team chat</h2>
  ${
    saved
      ? html`<p>Alerts are posted to <code>${saved}</code>.</p>
  <div class="actions"><button type="submit" form="webhook-test" class="secondary">Send a test message</button><button type="submit" form="webhook-remove" class="danger">Remove webhook</button></div>`
      : html`<p class="muted">No chat webhook yet: chat alerts are off.</p>`
  }
  ${field({
    name: "webhook",
    label: saved ? "Replace the webhook URL" : "Incoming webhook URL",
    type: "url",
    value: p.values.webhook,
    error: e.webhook,
    autocomplete: "off",
    placeholder: "https://hooks.slack.com/services/…",
    help: saved
      ? "Leave blank to keep the current webhook. The URL is a secret: it is shown masked once saved."
      : "A Slack incoming webhook (Mattermost and Rocket.Chat accept the same). The URL is a secret: it is shown masked once saved.",
  })}
</section>
<section class="panel" aria-labelledby="email-title">
  <h2 id="email-title">E-mail</h2>
  ${p.emailEnabled ? "" : html`<p class="notice info">E-mail sending is not set up on this server (<code>SMTP_URL</code>). E-mail alerts are kept meanwhile, shown as waiting, and sent once it is set up (they wait up to 7 days). Ask your Velvet administrator.</p>`}
  ${p.savedEmails.length > 0 ? html`<p>Alerts are e-mailed to ${p.savedEmails.join(", ")}.</p><div class="actions"><button type="submit" form="email-test" class="secondary">Send a test e-mail</button></div>` : ""}
  ${field({ name: "emails", label: "Send alerts to", textarea: true, value: p.values.emails, error: e.emails, autocomplete: "off", help: `E-mail addresses, one per line or separated by commas (up to ${MAX_ALERT_EMAILS}). Each new address gets a link to confirm it first. Leave empty for no e-mail alerts.` })}
</section>
<div class="actions"><button type="submit">Save alert settings</button></div>
</form>
${awaitingList(p)}`,
  });
}
