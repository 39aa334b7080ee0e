/**
 * The one way a setting changes: validated values in (each setting's `parse`), the columns that
 * differ written, each changed setting's `afterChange` run, and the change told in the audit
 * trail (one event per audit action, its details in the settings' order), in one transaction.
 * Nothing is written or recorded when nothing changed.
 */
import type { Kysely, Transaction } from "kysely";
import type { Config } from "../../../config.js";
import type { Database } from "../../../db/schema.js";
import type { Deps } from "../../../deps.js";
import type { AuditAction } from "../../audit/audit-actions.js";
import type { AuditActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";
import {
  type AccountSettingKey,
  type AccountSettingValues,
  type AnySetting,
  SETTING_KEYS,
  settingOf,
} from "./account-settings.js";
import { readAccountSettings, storedSettings } from "./read-account-settings.js";

/** Audit details by action, for one event each. */
export type AuditDetails = Map<AuditAction, Record<string, unknown>>;

export interface SettingsChange {
  changed: AccountSettingKey[];
  details: AuditDetails;
}

function stored(setting: AnySetting, value: unknown): string {
  return JSON.stringify(setting.store ? setting.store(value) : value);
}

function shown(setting: AnySetting, value: unknown): unknown {
  const audit = setting.audit;
  return audit !== false && audit.show ? audit.show(value) : value;
}

/**
 * In the caller's transaction: writes the given values that differ from `before` and runs
 * their `afterChange`; answers what changed and the audit details, for the caller to record
 * (with details of its own: the alert channels tell their changes in the same event).
 */
export async function writeSettingsChange(
  trx: Transaction<Database>,
  input: {
    accountId: string;
    before: AccountSettingValues;
    values: Partial<AccountSettingValues>;
  },
  context: { now: number; config: Config },
): Promise<SettingsChange> {
  const changed = SETTING_KEYS.filter((key) => {
    const value = input.values[key];
    const setting = settingOf(key);
    return value !== undefined && stored(setting, value) !== stored(setting, input.before[key]);
  });
  const details: AuditDetails = new Map();
  if (changed.length === 0) return { changed, details };
  const after = Object.fromEntries(changed.map((key) => [key, input.values[key]]));
  await trx
    .updateTable("accounts")
    .set(storedSettings(after))
    .where("id", "=", input.accountId)
    .execute();
  for (const key of changed) {
    const setting = settingOf(key);
    const from = input.before[key];
    const to = input.values[key];
    if (setting.audit) {
      const change = { from: shown(setting, from), to: shown(setting, to) };
      const event = details.get(setting.audit.action) ?? {};
      details.set(
        setting.audit.action,
        setting.audit.detail
          ? { ...event, [setting.audit.detail]: change }
          : { ...event, ...change },
      );
    }
    await setting.afterChange?.({ trx, accountId: input.accountId, from, to, ...context });
  }
  return { changed, details };
}

/** Records one audit event per action, in the caller's transaction. */
export async function recordAuditDetails(
  db: Kysely<Database> | Transaction<Database>,
  event: { accountId: string; actor: AuditActor },
  details: AuditDetails,
  now: number,
): Promise<void> {
  for (const [action, d] of details) {
    if (Object.keys(d).length > 0)
      await recordAuditEvent(db, { ...event, action, details: d }, now);
  }
}

/** Changes settings and records the change; false when the account does not exist. */
export async function changeAccountSettings(
  deps: Pick<Deps, "db" | "clock" | "config">,
  input: { accountId: string; values: Partial<AccountSettingValues>; actor: AuditActor },
): Promise<{ changed: AccountSettingKey[] } | false> {
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const before = await readAccountSettings(trx, input.accountId);
    if (!before) return false;
    const change = await writeSettingsChange(
      trx,
      { accountId: input.accountId, before, values: input.values },
      { now, config: deps.config },
    );
    await recordAuditDetails(trx, input, change.details, now);
    return { changed: change.changed };
  });
}
