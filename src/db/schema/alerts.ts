/**
 * Alerts apart from the tables that name a channel: an alert's statuses, each delivery attempt,
 * an account's channel settings, and the confirmations of alert e-mail addresses. The alerts and
 * channel outage tables stay in db/schema.ts beside AlertChannelNames, the interface each channel
 * adds its name to by declaration merging on that module.
 */

/**
 * `waiting`: an e-mail alert that no server able to send mail (SMTP_URL) has run yet; it keeps
 * its attempts and goes out when one does (deliver-email-alert.ts).
 */
export type AlertStatus = "pending" | "waiting" | "delivered" | "failed";

/**
 * One alert channel setting of an account that has a value (features/alerts/channels): `name`
 * is the setting's key in its channel's declaration; a secret's `value` is sealed (`v1:…`)
 * when the process that wrote it had STORE_TOKEN_KEY.
 */
export interface ChannelSettingsTable {
  account_id: string;
  channel: string;
  name: string;
  value: string;
}

export type AlertAttemptOutcome = "delivered" | "retry" | "failed";

export interface AlertAttemptsTable {
  id: string;
  alert_id: string;
  attempted_at: number;
  outcome: AlertAttemptOutcome;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export interface AlertEmailConfirmationsTable {
  account_id: string;
  email_normalized: string;
  email: string;
  /** SHA-256 of the token in the mailed link. */
  token_hash: string;
  expires_at: number;
  sent_at: number;
  created_at: number;
}
