import type { Deps } from "../../deps.js";
import { splitAlertEmails } from "../alerts/alert-settings.js";
import { readChannelValues } from "../alerts/channels/channel-registry.js";
import { maskWebhookUrl } from "../alerts/webhook-url.js";
import type { AccountSettingValues } from "./settings/account-settings.js";
import {
  QUALIFIED_SETTING_COLUMNS,
  readDataSettings,
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

/** `deps.config` holds the key that opens a sealed webhook URL (STORE_TOKEN_KEY). */
export async function getAccount(
  deps: Pick<Deps, "db" | "config">,
  accountId: string,
): Promise<AccountView | null> {
  const row = await deps.db.kysely
    .selectFrom("accounts")
    .innerJoin("stores", "stores.account_id", "accounts.id")
    .select([
      "accounts.id",
      "accounts.name",
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
  const channels = await readChannelValues(
    deps.db.kysely,
    accountId,
    deps.config.storeSync.tokenKey,
  );
  const webhook = channels.slack_webhook_url ?? null;
  const settings: AccountSettingValues = settingsOf(
    row as SettingsRow,
    await readDataSettings(deps.db.kysely, accountId),
  );
  return {
    accountId: row.id,
    name: row.name,
    ...settings,
    storeId: row.store_id,
    slackWebhook: webhook === null ? null : maskWebhookUrl(webhook),
    alertEmails: splitAlertEmails(channels.alert_emails ?? null),
    closedAt: row.closed_at === null ? null : new Date(row.closed_at).toISOString(),
  };
}
