/**
 * Every account setting. A setting declared here (settings/account-setting.ts) is read,
 * changed, audited, shown on its page and given its flag with no other change; one without a
 * `column` is stored as data under its key here (`account_settings`), so a key, once used, stays.
 * The order is the order of the flags of `velvet account set`, of the details of an audit
 * event, and of the fields on each page.
 */
import type { SettingColumn, SettingCore } from "./account-setting.js";
import { apiRateLimitPerMinute } from "./api-rate-limit.js";
import { monthlyBudgetUsd } from "./monthly-budget.js";
import { tiers } from "./tiers-setting.js";
import { vipThreshold } from "./vip-threshold.js";

export const ACCOUNT_SETTINGS = {
  vipThreshold,
  apiRateLimitPerMinute,
  monthlyBudgetUsd,
  tiers,
} as const;

export type AccountSettingKey = keyof typeof ACCOUNT_SETTINGS;

type ValueOf<S> = S extends { default: infer T } ? T : never;

/** Any setting, as the code that handles every one of them sees it. */
// biome-ignore lint/suspicious/noExplicitAny: a list of settings of different value types.
export type AnySetting = SettingCore<any> & {
  column?: SettingColumn;
  store?: (value: never) => unknown;
  read?: (stored: never) => unknown;
};

/** A list of settings by key: the product's is ACCOUNT_SETTINGS (a test may declare its own). */
export type SettingCatalog = Readonly<Record<string, AnySetting>>;

/** Every setting's value of a list, by key. */
export type SettingValuesOf<S extends SettingCatalog> = {
  -readonly [K in keyof S]: ValueOf<S[K]>;
};

/** Every setting's value, by key: what the reads answer. */
export type AccountSettingValues = SettingValuesOf<typeof ACCOUNT_SETTINGS>;

/** The declarations with their keys, in order. */
export const SETTING_KEYS = Object.keys(ACCOUNT_SETTINGS) as AccountSettingKey[];

export function settingOf(key: AccountSettingKey): AnySetting {
  return ACCOUNT_SETTINGS[key] as AnySetting;
}

/** How the audit trail names each setting's detail: by the setting's label. */
export const SETTING_DETAIL_LABELS: Readonly<Record<string, string>> = Object.fromEntries(
  SETTING_KEYS.flatMap((key) => {
    const { audit, label } = settingOf(key);
    return audit && audit.detail !== undefined ? [[audit.detail, label]] : [];
  }),
);
