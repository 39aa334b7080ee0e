/**
 * The one way a setting changes: validated values in (each setting's `parse`), those that differ
 * written where each lives (its column, or its row of `account_settings`), each changed
 * setting's `afterChange` run, and the change told in the audit trail (one event per audit
 * action, its details in the settings' order), in one transaction. Nothing is written or
 * recorded when nothing changed. The settings are the product's (ACCOUNT_SETTINGS) unless a
 * list is given.
 */
import type { Kysely, Transaction } from "kysely";
import type { Config } from "../../../config.js";
import type { Database } from "../../../db/schema.js";
import type { Deps } from "../../../deps.js";
import type { AuditAction } from "../../audit/audit-actions.js";
import type { AuditActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";
import {
  ACCOUNT_SETTINGS,
  type AnySetting,
  type SettingCatalog,
  type SettingValuesOf,
} from "./account-settings.js";
import { readAccountSettings, storedText, writeSettings } from "./read-account-settings.js";

type Product = typeof ACCOUNT_SETTINGS;

/** Audit details by action, for one event each. */
export type AuditDetails = Map<AuditAction, Record<string, unknown>>;

export interface SettingsChange<S extends SettingCatalog = Product> {
  changed: (keyof S & string)[];
  details: AuditDetails;
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
export async function writeSettingsChange<S extends SettingCatalog = Product>(
  trx: Transaction<Database>,
  input: {
    accountId: string;
    before: SettingValuesOf<S>;
    values: Partial<SettingValuesOf<S>>;
  },
  context: { now: number; config: Config },
  catalog: S = ACCOUNT_SETTINGS as unknown as S,
): Promise<SettingsChange<S>> {
  const values = input.values as Partial<Record<string, unknown>>;
  const before = input.before as Record<string, unknown>;
  const settings = Object.entries(catalog) as [keyof S & string, AnySetting][];
  const changed = settings
    .filter(([key, setting]) => {
      const value = values[key];
      return value !== undefined && storedText(setting, value) !== storedText(setting, before[key]);
    })
    .map(([key]) => key);
  const details: AuditDetails = new Map();
  if (changed.length === 0) return { changed, details };
  const after = Object.fromEntries(changed.map((key) => [key, values[key]])) as Partial<
    SettingValuesOf<S>
  >;
  await writeSettings(trx, input.accountId, after, context.now, catalog);
  for (const key of changed) {
    const setting = catalog[key] as AnySetting;
    const from = before[key];
    const to = values[key];
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
export async function changeAccountSettings<S extends SettingCatalog = Product>(
  deps: Pick<Deps, "db" | "clock" | "config">,
  input: { accountId: string; values: Partial<SettingValuesOf<S>>; actor: AuditActor },
  catalog: S = ACCOUNT_SETTINGS as unknown as S,
): Promise<{ changed: (keyof S & string)[] } | false> {
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const before = await readAccountSettings(trx, input.accountId, catalog);
    if (!before) return false;
    const change = await writeSettingsChange(
      trx,
      { accountId: input.accountId, before, values: input.values },
      { now, config: deps.config },
      catalog,
    );
    await recordAuditDetails(trx, input, change.details, now);
    return { changed: change.changed };
  });
}
