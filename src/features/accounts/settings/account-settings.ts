/**
 * Every account setting. A setting declared here (settings/account-setting.ts) is read,
 * changed, audited, shown on its page and given its flag with no other change. The order is
 * the order of the flags of `velvet account set`, of the details of an audit event, and of the
 * fields on each page.
 */
import type { AccountSetting, SettingColumn } from "./account-setting.js";
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

type ValueOf<S> = S extends AccountSetting<infer T, infer _C> ? T : never;

/** Every setting's value, by key: what the reads answer. */
export type AccountSettingValues = {
  -readonly [K in AccountSettingKey]: ValueOf<(typeof ACCOUNT_SETTINGS)[K]>;
};

// biome-ignore lint/suspicious/noExplicitAny: a list of settings of different value types.
export type AnySetting = AccountSetting<any, SettingColumn>;

/** The declarations with their keys, in order. */
export const SETTING_KEYS = Object.keys(ACCOUNT_SETTINGS) as AccountSettingKey[];

export function settingOf(key: AccountSettingKey): AnySetting {
  return ACCOUNT_SETTINGS[key] as AnySetting;
}
