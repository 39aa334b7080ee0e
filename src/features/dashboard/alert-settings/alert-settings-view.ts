/** Settings → Alerts: the settings declared for the page (the VIP threshold, the tiers) and where alerts go (the channels' panels). */
import type { ChannelValues } from "../../alerts/channels/alert-channel.js";
import { CHANNELS } from "../../alerts/channels/channel-registry.js";
import type { Precision } from "../../verdicts/precision.js";
import type { MonthPrecision } from "../../verdicts/precision-history.js";
import { type Notice, notice, pageHead } from "../html/components.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { settingPanels } from "../settings/setting-fields.js";
import type { AlertSettingsField, AlertSettingsFormValues } from "./alert-settings-form.js";
import { channelPanel } from "./channel-panels.js";
import { precisionPanel } from "./precision-panel.js";
import type { ScoreDistribution } from "./score-distribution.js";
import { scoreDistributionPanel } from "./score-distribution-view.js";

export interface AlertSettingsProps {
  session: DashboardSession;
  /** What the form shows: the saved values, or what was typed when it was refused. */
  values: AlertSettingsFormValues;
  errors: Partial<Record<AlertSettingsField, string>>;
  maskedWebhook: string | null;
  /** Every channel's stored settings (secrets are shown only through their `show`). */
  channelValues: ChannelValues;
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
${CHANNELS.map(
  (c) => html`${channelPanel(c.name)(p)}
`,
)}<div class="actions"><button type="submit">Save alert settings</button></div>
</form>
${awaitingList(p)}`,
  });
}
