/**
 * Each alert channel's panel on Settings → Alerts. A channel's panel is `declaredPanel`, built
 * from its settings (alerts/channels/): one field per setting, a secret shown only masked and
 * kept when its field is left blank. Team chat and e-mail have panels of their own (a test
 * message, removing the webhook, SMTP and confirmation notes); any other channel needs nothing
 * here: `channelPanel` builds its panel from its declaration.
 */
import { MAX_ALERT_EMAILS } from "../../alerts/alert-settings.js";
import type { AlertChannelDefinition, ChannelValues } from "../../alerts/channels/alert-channel.js";
import { type ChannelName, channelNamed } from "../../alerts/channels/channel-registry.js";
import { field } from "../html/fields.js";
import { html, type SafeHtml } from "../html/html.js";
import type { AlertSettingsField, AlertSettingsFormValues } from "./alert-settings-form.js";

/** What a panel reads of the page's props (alert-settings-view.ts). */
export interface ChannelPanelProps {
  values: AlertSettingsFormValues;
  errors: Partial<Record<AlertSettingsField, string>>;
  channelValues: ChannelValues;
  maskedWebhook: string | null;
  emailEnabled: boolean;
  savedEmails: string[];
}

export type ChannelPanel = (p: ChannelPanelProps) => SafeHtml;

/** The form field a declared setting is typed into. */
export function channelFieldName(column: string): `channel.${string}` {
  return `channel.${column}`;
}

export function declaredPanel(channel: AlertChannelDefinition): ChannelPanel {
  return (p) => {
    const fields = channel.settings.map((setting) => {
      const name = channelFieldName(setting.key);
      const shown = setting.show(p.channelValues[setting.key] ?? null);
      const help = setting.secret
        ? `${setting.cli.help}. Leave blank to keep the current value. It is a secret: it is shown masked once saved.`
        : setting.cli.help;
      return html`${shown === null ? "" : html`<p>${setting.cliLabel}: <code>${shown}</code>.</p>`}
  ${field({
    name,
    label: setting.cliLabel,
    value: p.values.channels?.[name] ?? (setting.secret ? "" : (shown ?? "")),
    error: p.errors[name],
    autocomplete: "off",
    help,
  })}`;
    });
    return html`<section class="panel" aria-labelledby="${channel.name}-title">
  <h2 id="${channel.name}-title">${channel.label}</h2>
  ${fields}
</section>`;
  };
}

const chatPanel: ChannelPanel = (p) => {
  const saved = p.maskedWebhook;
  return html`<section class="panel" aria-labelledby="chat-title">
  <h2 id="chat-title">${channelNamed("chat").label}</h2>
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
    error: p.errors.webhook,
    autocomplete: "off",
    placeholder: "https://hooks.slack.com/services/…",
    help: saved
      ? "Leave blank to keep the current webhook. The URL is a secret: it is shown masked once saved."
      : "A Slack incoming webhook (Mattermost and Rocket.Chat accept the same). The URL is a secret: it is shown masked once saved.",
  })}
</section>`;
};

const emailPanel: ChannelPanel = (p) =>
  html`<section class="panel" aria-labelledby="email-title">
  <h2 id="email-title">${channelNamed("email").label}</h2>
  ${p.emailEnabled ? "" : html`<p class="notice info">E-mail sending is not set up on this server (<code>SMTP_URL</code>). E-mail alerts are kept meanwhile, shown as waiting, and sent once it is set up (they wait up to 7 days). Ask your Velvet administrator.</p>`}
  ${p.savedEmails.length > 0 ? html`<p>Alerts are e-mailed to ${p.savedEmails.join(", ")}.</p><div class="actions"><button type="submit" form="email-test" class="secondary">Send a test e-mail</button></div>` : ""}
  ${field({ name: "emails", label: "Send alerts to", textarea: true, value: p.values.emails, error: p.errors.emails, autocomplete: "off", help: `E-mail addresses, one per line or separated by commas (up to ${MAX_ALERT_EMAILS}). Each new address gets a link to confirm it first. Leave empty for no e-mail alerts.` })}
</section>`;

/** The channels with a panel of their own; every other channel gets `declaredPanel`. */
const OWN_PANELS: Partial<Record<ChannelName, ChannelPanel>> = {
  chat: chatPanel,
  email: emailPanel,
};

/** A channel's panel: its own, or the one its declared settings make. */
export function channelPanel(name: ChannelName): ChannelPanel {
  return OWN_PANELS[name] ?? declaredPanel(channelNamed(name));
}
