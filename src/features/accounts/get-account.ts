import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { splitAlertEmails } from "../alerts/alert-settings.js";
import { maskWebhookUrl } from "../alerts/webhook-url.js";
import type { AccountSettingValues } from "./settings/account-settings.js";
import {
  QUALIFIED_SETTING_COLUMNS,
  type SettingsRow,
  settingsOf,
} from "./settings/read-account-settings.js";

/** The account with every declared setting (settings/account-settings.ts) and its channels. */
export interface AccountView extends AccountSettingValues {
  accountId: string;
  name: string;
  storeId: string;
  /** Masked (scheme, host, last four characters): the full URL is a secret. */
  slackWebhook: string | null;
  alertEmails: string[];
  /** ISO instant the account was closed, or null. */
  closedAt: string | null;
}

export async function getAccount(
  db: Kysely<Database>,
  accountId: string,
): Promise<AccountView | null> {
  const row = await db
    .selectFrom("accounts")
    .innerJoin("stores", "stores.account_id", "accounts.id")
    .select([
      "accounts.id",
      "accounts.name",
      "accounts.slack_webhook_url",
      "accounts.alert_emails",
      "accounts.closed_at",
      "stores.id as store_id",
      ...QUALIFIED_SETTING_COLUMNS,
    ])
    .where("accounts.id", "=", accountId)
    // The real store: the sample store (features/demo) takes no orders but sample ones.
    .where("stores.sample", "=", 0)
    .orderBy("stores.created_at")
    .executeTakeFirst();
  if (!row) return null;
  return {
    accountId: row.id,
    name: row.name,
    ...settingsOf(row as SettingsRow),
    storeId: row.store_id,
    slackWebhook: row.slack_webhook_url === null ? null : maskWebhookUrl(row.slack_webhook_url),
    alertEmails: splitAlertEmails(row.alert_emails),
    closedAt: row.closed_at === null ? null : new Date(row.closed_at).toISOString(),
  };
}
