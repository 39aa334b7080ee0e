/**
 * An account's alert channels as typed by a person (CLI flags now, dashboard form later): a
 * webhook URL and a comma-separated list of e-mail addresses, where "" clears the setting.
 * Checked here, once, for every entry point; `updateAccount` stores what passed.
 */
import { checkEmail } from "../orders/email-address.js";
import { checkWebhookUrl, type WebhookPolicy } from "./webhook-url.js";

export interface AlertSettingsInput {
  /** undefined: unchanged; "": remove the webhook. */
  slackWebhook?: string;
  /** undefined: unchanged; "": remove all addresses; otherwise "a@x.com, b@y.com". */
  alertEmails?: string;
}

export interface AlertSettings {
  slackWebhookUrl?: string | null;
  alertEmails?: string[] | null;
}

export type AlertSettingsCheck =
  | { ok: true; settings: AlertSettings }
  | { ok: false; errors: string[] };

export const MAX_ALERT_EMAILS = 20;

export function checkAlertSettings(
  input: AlertSettingsInput,
  policy: WebhookPolicy,
): AlertSettingsCheck {
  const errors: string[] = [];
  const settings: AlertSettings = {};
  if (input.slackWebhook !== undefined) {
    if (input.slackWebhook.trim() === "") settings.slackWebhookUrl = null;
    else {
      const checked = checkWebhookUrl(input.slackWebhook, policy);
      if (checked.ok) settings.slackWebhookUrl = checked.url;
      else errors.push(checked.reason);
    }
  }
  if (input.alertEmails !== undefined) {
    const list = splitAlertEmails(input.alertEmails);
    const invalid = list.filter((e) => checkEmail(e) === "invalid");
    if (invalid.length > 0) errors.push(`not valid e-mail addresses: ${invalid.join(", ")}`);
    else if (list.length > MAX_ALERT_EMAILS)
      errors.push(`at most ${MAX_ALERT_EMAILS} alert e-mail addresses`);
    else settings.alertEmails = list.length === 0 ? null : list;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, settings };
}

/** Splits a stored or typed address list ("a@x.com, b@y.com"), dropping blanks and repeats. */
export function splitAlertEmails(value: string | null): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of (value ?? "").split(/[,;\s]+/)) {
    const email = part.trim();
    if (email === "" || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    out.push(email);
  }
  return out;
}
