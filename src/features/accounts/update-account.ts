import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { ChannelValues } from "../alerts/channels/alert-channel.js";
import { writeChannelValues } from "../alerts/channels/channel-registry.js";
import type { SettingsKey } from "../alerts/channels/channel-settings-store.js";
import type { AccountSettingValues } from "./settings/account-settings.js";
import { writeSettings } from "./settings/read-account-settings.js";

/** Where alerts go: the alert channels, kept apart from the declared settings. */
export interface AlertChannelSettings {
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
 * `now` dates a setting stored as data (the audited path passes its clock's time).
 */
export async function updateAccount(
  db: Kysely<Database>,
  accountId: string,
  settings: AccountSettings,
  options: { trustEmails?: boolean; key?: SettingsKey; now?: number } = {},
): Promise<boolean> {
  const exists = await db
    .selectFrom("accounts")
    .select("id")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!exists) return false;
  const { channels = {}, ...values } = settings;
  await writeChannelValues(db, accountId, channels, options.key ?? null);
  await writeSettings(db, accountId, values, options.now ?? Date.now());
  if (channels.alert_emails !== undefined && options.trustEmails !== false) {
    await db.deleteFrom("alert_email_confirmations").where("account_id", "=", accountId).execute();
  }
  return true;
}
