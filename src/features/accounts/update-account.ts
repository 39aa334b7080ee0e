import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ChannelValues } from "../alerts/channels/alert-channel.js";
import { writeChannelValues } from "../alerts/channels/channel-registry.js";
import type { SettingsKey } from "../alerts/channels/channel-settings-store.js";
import type { AccountSettingValues } from "./settings/account-settings.js";
import { storedSettings } from "./settings/read-account-settings.js";

/** Where alerts go: the alert channels, kept apart from the declared settings. */
export interface AlertChannelSettings {
  /** Already checked by `checkAlertSettings`; null removes the webhook. */
  slackWebhookUrl?: string | null;
  /** Already checked by `checkAlertSettings`; null or [] removes every address. */
  alertEmails?: string[] | null;
  /** Any channel's settings as stored, each checked by its channel's `check`; null removes one. */
  channels?: ChannelValues;
}

/** Declared settings (already checked by their `parse`) and alert channels; left out: unchanged. */
export type AccountSettings = Partial<AccountSettingValues> & AlertChannelSettings;

/**
 * Applies the given settings as they are, unaudited (the audited path is
 * settings/change-account-settings.ts); returns false when the account does not exist. Alert
 * addresses set here are trusted (the operator's CLI): any confirmation they awaited is dropped.
 * The dashboard passes `trustEmails: false` and records which addresses await confirmation itself.
 * `key` (STORE_TOKEN_KEY) seals secret channel settings; without it they are stored as given.
 */
export async function updateAccount(
  db: Kysely<Database>,
  accountId: string,
  settings: AccountSettings,
  options: { trustEmails?: boolean; key?: SettingsKey } = {},
): Promise<boolean> {
  const exists = await db
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!exists) return false;
  const { slackWebhookUrl, alertEmails: emails, channels, ...values } = settings;
  const fromChannels = channels?.alert_emails;
  const alertEmails =
    emails !== undefined
      ? (emails ?? [])
      : fromChannels !== undefined
        ? (fromChannels ?? "").split(",").filter((e) => e !== "")
        : undefined;
  const channelChanges: ChannelValues = {
    ...channels,
    ...(slackWebhookUrl === undefined ? {} : { slack_webhook_url: slackWebhookUrl }),
    ...(alertEmails === undefined
      ? {}
      : { alert_emails: alertEmails.length === 0 ? null : alertEmails.join(",") }),
  };
  await writeChannelValues(db, accountId, channelChanges, options.key ?? null);
  const changes = storedSettings(values);
  if (Object.keys(changes).length > 0) {
    await db.updateTable("accounts").set(changes).where("id", "=", accountId).execute();
  }
  if (alertEmails !== undefined && options.trustEmails !== false) {
    await db.deleteFrom("alert_email_confirmations").where("account_id", "=", accountId).execute();
  }
  return true;
}
