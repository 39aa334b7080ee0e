/**
 * Reading the Settings → Alerts form: a threshold from 0 to 100, the tiers ("Gold:90, Silver:80";
 * blank names none; a form without the field leaves them as they are), a webhook URL (blank
 * keeps the saved one) and the alert addresses (the whole list; blank removes them all). Channel
 * rules are the alerts feature's (`checkAlertSettings`) and tier rules the customers feature's
 * (`parseTiers`), so the CLI and the dashboard agree.
 */
import type { AccountSettings } from "../../accounts/update-account.js";
import { checkAlertSettings } from "../../alerts/alert-settings.js";
import type { ChannelValues } from "../../alerts/channels/alert-channel.js";
import { CHANNEL_SETTINGS } from "../../alerts/channels/channel-registry.js";
import type { WebhookPolicy } from "../../alerts/webhook-url.js";
import { parseTiers } from "../../customers/tiers.js";

/** A channel's declared setting is typed into `channel.<column>` (channel-panels.ts). */
export type AlertSettingsField = "threshold" | "tiers" | "webhook" | "emails" | `channel.${string}`;

export interface AlertSettingsFormValues {
  threshold: string;
  /** Absent: the form did not carry the field (tiers unchanged). */
  tiers?: string;
  webhook: string;
  emails: string;
  /** The declared channel fields the form carried, by field name. */
  channels?: Record<string, string>;
}

export type AlertSettingsFormResult =
  | { ok: true; settings: AccountSettings }
  | { ok: false; errors: Partial<Record<AlertSettingsField, string>> };

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function readAlertSettingsForm(
  v: AlertSettingsFormValues,
  policy: WebhookPolicy,
): AlertSettingsFormResult {
  const errors: Partial<Record<AlertSettingsField, string>> = {};
  const settings: AccountSettings = {};
  const threshold = v.threshold.trim();
  if (!/^\d{1,3}$/.test(threshold) || Number(threshold) > 100) {
    errors.threshold = "Enter a whole number from 0 to 100.";
  } else {
    settings.vipThreshold = Number(threshold);
  }
  if (v.tiers !== undefined) {
    const tiers = parseTiers(v.tiers);
    if (tiers.ok) settings.tiers = tiers.tiers;
    else errors.tiers = `${capitalise(tiers.errors.join("; "))}.`;
  }
  if (v.webhook.trim() !== "") {
    const checked = checkAlertSettings({ slackWebhook: v.webhook }, policy);
    if (checked.ok) settings.slackWebhookUrl = checked.settings.slackWebhookUrl ?? null;
    else errors.webhook = `${capitalise(checked.errors.join("; "))}.`;
  }
  const emails = checkAlertSettings({ alertEmails: v.emails }, policy);
  if (emails.ok) settings.alertEmails = emails.settings.alertEmails ?? null;
  else errors.emails = `${capitalise(emails.errors.join("; "))}.`;
  const channels: ChannelValues = {};
  for (const setting of CHANNEL_SETTINGS) {
    const name = `channel.${setting.column}` as const;
    const typed = v.channels?.[name];
    // A secret is never shown back: its blank field keeps the saved value.
    if (typed === undefined || (setting.secret && typed.trim() === "")) continue;
    const checked = setting.check(typed, policy);
    if (checked.ok) channels[setting.column] = checked.stored;
    else errors[name] = `${capitalise(checked.reason)}.`;
  }
  if (Object.keys(channels).length > 0) settings.channels = channels;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, settings };
}
