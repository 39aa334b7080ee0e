/**
 * Reading the Settings → Alerts form: the page's declared settings (the threshold, the tiers:
 * read by their declarations, settings/setting-fields.ts; a form without an optional field
 * leaves its setting as it is), a webhook URL (blank keeps the saved one) and the alert addresses
 * (the whole list; blank removes them all). Channel rules are the alerts feature's
 * (`checkAlertSettings`), so the CLI and the dashboard agree.
 */
import type { AccountSettingKey } from "../../accounts/settings/account-settings.js";
import type { AccountSettings } from "../../accounts/update-account.js";
import { checkAlertSettings } from "../../alerts/alert-settings.js";
import type { ChannelValues } from "../../alerts/channels/alert-channel.js";
import { CHANNEL_SETTINGS } from "../../alerts/channels/channel-registry.js";
import type { WebhookPolicy } from "../../alerts/webhook-url.js";
import { readSettingTexts, type SettingTexts } from "../settings/setting-fields.js";

/** A channel's declared setting is typed into `channel.<column>` (channel-panels.ts). */
export type AlertSettingsField = AccountSettingKey | "webhook" | "emails" | `channel.${string}`;

export interface AlertSettingsFormValues {
  /** The declared settings as typed; a setting left out is unchanged. */
  settings: SettingTexts;
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
  const declared = readSettingTexts(v.settings);
  const errors: Partial<Record<AlertSettingsField, string>> = { ...declared.errors };
  const settings: AccountSettings = { ...declared.values };
  // The page's own webhook and address fields, over any declared field of the same setting.
  const own: ChannelValues = {};
  if (v.webhook.trim() !== "") {
    const checked = checkAlertSettings({ slackWebhook: v.webhook }, policy);
    if (checked.ok) own.slack_webhook_url = checked.settings.slackWebhookUrl ?? null;
    else errors.webhook = `${capitalise(checked.errors.join("; "))}.`;
  }
  const emails = checkAlertSettings({ alertEmails: v.emails }, policy);
  if (emails.ok) own.alert_emails = emails.settings.alertEmails?.join(",") ?? null;
  else errors.emails = `${capitalise(emails.errors.join("; "))}.`;
  const channels: ChannelValues = {};
  for (const setting of CHANNEL_SETTINGS) {
    const name = `channel.${setting.key}` as const;
    const typed = v.channels?.[name];
    // A secret is never shown back: its blank field keeps the saved value.
    if (typed === undefined || (setting.secret && typed.trim() === "")) continue;
    const checked = setting.check(typed, policy);
    if (checked.ok) channels[setting.key] = checked.stored;
    else errors[name] = `${capitalise(checked.reason)}.`;
  }
  Object.assign(channels, own);
  if (Object.keys(channels).length > 0) settings.channels = channels;
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, settings };
}
