import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { splitAlertEmails } from "../alerts/alert-settings.js";
import { maskWebhookUrl } from "../alerts/webhook-url.js";
import { readTiers, type Tier } from "../customers/tiers.js";

export interface AccountView {
  accountId: string;
  name: string;
  vipThreshold: number;
  storeId: string;
  /** Masked (scheme, host, last four characters): the full URL is a secret. */
  slackWebhook: string | null;
  alertEmails: string[];
  /** ISO instant the account was closed, or null. */
  closedAt: string | null;
  /** Requests a minute per API key set for this account; null: the deployment's default. */
  apiRateLimitPerMinute: number | null;
  /** The monthly budget for paid provider lookups (USD); null: none. */
  monthlyBudgetUsd: string | null;
  /** Named score floors, highest first (features/customers/tiers.ts); [] when none. */
  tiers: Tier[];
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
      "accounts.vip_threshold",
      "accounts.slack_webhook_url",
      "accounts.alert_emails",
      "accounts.closed_at",
      "accounts.api_rate_limit_per_minute",
      "accounts.monthly_budget_usd",
      "accounts.tiers",
      "stores.id as store_id",
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
    vipThreshold: row.vip_threshold,
    storeId: row.store_id,
    slackWebhook: row.slack_webhook_url === null ? null : maskWebhookUrl(row.slack_webhook_url),
    alertEmails: splitAlertEmails(row.alert_emails),
    closedAt: row.closed_at === null ? null : new Date(row.closed_at).toISOString(),
    apiRateLimitPerMinute: row.api_rate_limit_per_minute,
    monthlyBudgetUsd: row.monthly_budget_usd,
    tiers: readTiers(row.tiers),
  };
}
