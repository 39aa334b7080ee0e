/**
 * Changing the VIP threshold, alert channels and API rate limit, recorded in the audit trail
 * with what changed (the threshold's old and new value, whether the webhook was set or removed,
 * how many alert addresses there are, the tiers before and after): never the webhook URL itself,
 * which is a secret. Nothing is recorded when nothing changed.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { splitAlertEmails } from "../alerts/alert-settings.js";
import { CHANNEL_COLUMNS, CHANNEL_SETTINGS } from "../alerts/channels/channel-registry.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { formatTiers, readTiers, storedTiers } from "../customers/tiers.js";
import { type AccountSettings, updateAccount } from "./update-account.js";

type Db = Kysely<Database> | Transaction<Database>;
export type SettingsBefore = Awaited<ReturnType<typeof readAlertSettings>>;

/** The settings as they are, read in the transaction that changes them. */
export function readAlertSettings(db: Db, accountId: string) {
  return db
    .selectFrom("accounts")
    .select(["vip_threshold", "api_rate_limit_per_minute", "tiers", ...CHANNEL_COLUMNS])
    .where("id", "=", accountId)
    .executeTakeFirst();
}

/** Records what `settings` changed from `before`, if anything, in the caller's transaction. */
export async function recordAlertSettingsChange(
  db: Db,
  input: {
    accountId: string;
    before: NonNullable<SettingsBefore>;
    settings: AccountSettings;
    actor: AuditActor;
  },
  now: number,
): Promise<void> {
  const { before, settings: s } = input;
  const changes: Record<string, unknown> = {};
  if (s.vipThreshold !== undefined && s.vipThreshold !== before.vip_threshold)
    changes.threshold = { from: before.vip_threshold, to: s.vipThreshold };
  if (s.slackWebhookUrl !== undefined && s.slackWebhookUrl !== before.slack_webhook_url)
    changes.chatWebhook = s.slackWebhookUrl === null ? "removed" : "set";
  for (const setting of CHANNEL_SETTINGS) {
    const after = s.channels?.[setting.column];
    const change = after === undefined ? undefined : setting.audit(before[setting.column], after);
    if (change !== undefined) changes[setting.auditKey] = change;
  }
  if (
    s.apiRateLimitPerMinute !== undefined &&
    s.apiRateLimitPerMinute !== before.api_rate_limit_per_minute
  )
    changes.apiRateLimit = { from: before.api_rate_limit_per_minute, to: s.apiRateLimitPerMinute };
  if (s.tiers !== undefined && storedTiers(s.tiers) !== storedTiers(readTiers(before.tiers)))
    changes.tiers = {
      from: formatTiers(readTiers(before.tiers)) || "none",
      to: formatTiers(s.tiers) || "none",
    };
  if (s.alertEmails !== undefined) {
    const after = (s.alertEmails ?? []).join(",");
    if (after !== splitAlertEmails(before.alert_emails).join(","))
      changes.alertEmails = { count: (s.alertEmails ?? []).length };
  }
  if (Object.keys(changes).length === 0) return;
  await recordAuditEvent(
    db,
    {
      accountId: input.accountId,
      actor: input.actor,
      action: "alert_settings.changed",
      details: changes,
    },
    now,
  );
}

/** Applies and records a change (the CLI's path); false when the account does not exist. */
export async function changeAlertSettings(
  db: Kysely<Database>,
  input: { accountId: string; settings: AccountSettings; actor: AuditActor },
  now: number,
  options: { trustEmails?: boolean } = {},
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const before = await readAlertSettings(trx, input.accountId);
    if (!before) return false;
    await updateAccount(trx, input.accountId, input.settings, options);
    await recordAlertSettingsChange(trx, { ...input, before }, now);
    return true;
  });
}
