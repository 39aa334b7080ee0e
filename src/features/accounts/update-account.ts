import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ChannelValues } from "../alerts/channels/alert-channel.js";
import { storedTiers, type Tier } from "../customers/tiers.js";

export interface AccountSettings {
  vipThreshold?: number;
  /** Already checked by `checkAlertSettings`; null removes the webhook. */
  slackWebhookUrl?: string | null;
  /** Already checked by `checkAlertSettings`; null or [] removes every address. */
  alertEmails?: string[] | null;
  /** Any channel's settings as stored, each checked by its channel's `check`; null removes one. */
  channels?: ChannelValues;
  /** Requests a minute per API key; 0: unlimited; null: back to API_RATE_LIMIT_PER_MINUTE. */
  apiRateLimitPerMinute?: number | null;
  /** Already checked by `parseTiers`; [] names no tier. */
  tiers?: Tier[];
}

/**
 * Applies the given settings; returns false when the account does not exist. Alert addresses
 * set here are trusted (the operator's CLI): any confirmation they awaited is dropped. The
 * dashboard passes `trustEmails: false` and records which addresses await confirmation itself.
 */
export async function updateAccount(
  db: Kysely<Database>,
  accountId: string,
  settings: AccountSettings,
  options: { trustEmails?: boolean } = {},
): Promise<boolean> {
  const exists = await db
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!exists) return false;
  const fromChannels = settings.channels?.alert_emails;
  const alertEmails =
    settings.alertEmails !== undefined
      ? (settings.alertEmails ?? [])
      : fromChannels !== undefined
        ? (fromChannels ?? "").split(",").filter((e) => e !== "")
        : undefined;
  const changes = {
    ...settings.channels,
    ...(settings.vipThreshold === undefined ? {} : { vip_threshold: settings.vipThreshold }),
    ...(settings.slackWebhookUrl === undefined
      ? {}
      : { slack_webhook_url: settings.slackWebhookUrl }),
    ...(settings.apiRateLimitPerMinute === undefined
      ? {}
      : { api_rate_limit_per_minute: settings.apiRateLimitPerMinute }),
    ...(settings.tiers === undefined ? {} : { tiers: storedTiers(settings.tiers) }),
    ...(alertEmails === undefined
      ? {}
      : { alert_emails: alertEmails.length === 0 ? null : alertEmails.join(",") }),
  };
  if (Object.keys(changes).length > 0) {
    await db.updateTable("accounts").set(changes).where("id", "=", accountId).execute();
  }
  if (alertEmails !== undefined && options.trustEmails !== false) {
    await db.deleteFrom("alert_email_confirmations").where("account_id", "=", accountId).execute();
  }
  return true;
}
