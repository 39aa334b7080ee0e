/**
 * Changing the alert settings (the declared settings and the alert channels) in one
 * transaction, recorded in the audit trail with what changed: the settings as their
 * declarations tell it (settings/change-account-settings.ts), and whether the webhook was set or
 * removed and how many alert addresses there are: never the webhook URL itself, which is a
 * secret. Nothing is recorded when nothing changed.
 */
import type { Kysely, Transaction } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { CHANNEL_SETTINGS, readChannelValues } from "../alerts/channels/channel-registry.js";
import type { SettingsKey } from "../alerts/channels/channel-settings-store.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditDetails, writeSettingsChange } from "./settings/change-account-settings.js";
import { readAccountSettings } from "./settings/read-account-settings.js";
import { type AccountSettings, updateAccount } from "./update-account.js";

type Db = Kysely<Database> | Transaction<Database>;
export type SettingsBefore = NonNullable<Awaited<ReturnType<typeof readAlertSettings>>>;

/** The settings and channels as they are, read in the transaction that changes them. */
export async function readAlertSettings(db: Db, accountId: string, key: SettingsKey) {
  const settings = await readAccountSettings(db, accountId);
  if (!settings) return undefined;
  const stored = await readChannelValues(db, accountId, key);
  const channels = Object.fromEntries(
    CHANNEL_SETTINGS.map((s) => [s.key, stored[s.key] ?? null]),
  ) as Record<string, string | null>;
  return { channels, settings };
}

/** What the channels' change tells the audit trail. */
function channelChanges(before: SettingsBefore, s: AccountSettings): Record<string, unknown> {
  const changes: Record<string, unknown> = {};
  for (const setting of CHANNEL_SETTINGS) {
    const after = s.channels?.[setting.key];
    const change =
      after === undefined ? undefined : setting.audit(before.channels[setting.key] ?? null, after);
    if (change !== undefined) changes[setting.auditKey] = change;
  }
  return changes;
}

/** Applies `settings` and records what changed from `before`, in the caller's transaction. */
export async function applyAlertSettingsChange(
  trx: Transaction<Database>,
  input: {
    accountId: string;
    before: SettingsBefore;
    settings: AccountSettings;
    actor: AuditActor;
  },
  context: { now: number; config: Config },
  options: { trustEmails?: boolean } = {},
): Promise<void> {
  const { channels: channelValues, ...values } = input.settings;
  const { accountId, before } = input;
  const change = await writeSettingsChange(
    trx,
    { accountId, before: before.settings, values },
    context,
  );
  await updateAccount(
    trx,
    accountId,
    { channels: channelValues },
    { ...options, key: context.config.storeSync.tokenKey, now: context.now },
  );
  const event = change.details.get("alert_settings.changed");
  const channels = channelChanges(before, input.settings);
  if (event || Object.keys(channels).length > 0)
    change.details.set("alert_settings.changed", { ...event, ...channels });
  await recordAuditDetails(trx, input, change.details, context.now);
}

/** Applies and records a change (the CLI's path); false when the account does not exist. */
export async function changeAlertSettings(
  deps: Pick<Deps, "db" | "clock" | "config">,
  input: { accountId: string; settings: AccountSettings; actor: AuditActor },
  options: { trustEmails?: boolean } = {},
): Promise<boolean> {
  const context = { now: deps.clock.now(), config: deps.config };
  return deps.db.kysely.transaction().execute(async (trx) => {
    const before = await readAlertSettings(trx, input.accountId, deps.config.storeSync.tokenKey);
    if (!before) return false;
    await applyAlertSettingsChange(trx, { ...input, before }, context, options);
    return true;
  });
}
