/**
 * The account settings on the command line, from their declarations
 * (features/accounts/settings/account-settings.ts): one flag each on `velvet account set`,
 * parsed by the setting's own rule, and the lines that show the settings afterwards.
 */
import { type Command, InvalidArgumentError, Option } from "commander";
import type { Config } from "../config.js";
import {
  type AccountSettingKey,
  type AccountSettingValues,
  SETTING_KEYS,
  settingOf,
} from "../features/accounts/settings/account-settings.js";

/** A typed setting as its value; the problem as commander's message when it is refused. */
export function settingValue<K extends AccountSettingKey>(
  key: K,
  text: string,
): AccountSettingValues[K] {
  const parsed = settingOf(key).parse(text);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.problem);
  return parsed.value as AccountSettingValues[K];
}

/**
 * Adds each setting's flag; answers how to read the settings given from the parsed options.
 * The value is kept wrapped: commander does not keep a null an option parser returns.
 */
export function addSettingFlags(
  command: Command,
): (opts: Record<string, unknown>) => Partial<AccountSettingValues> {
  const flags: [AccountSettingKey, string][] = [];
  for (const key of SETTING_KEYS) {
    const cli = settingOf(key).cli;
    if (cli === null) continue;
    const option = new Option(cli.flag, cli.description).argParser((text: string) => ({
      value: settingValue(key, text),
    }));
    command.addOption(option);
    flags.push([key, option.attributeName()]);
  }
  return (opts) => {
    const values: Record<string, unknown> = {};
    for (const [key, name] of flags) {
      const given = opts[name] as { value: unknown } | undefined;
      if (given !== undefined) values[key] = given.value;
    }
    return values as Partial<AccountSettingValues>;
  };
}

function describe(key: AccountSettingKey, values: AccountSettingValues, config: Config): string {
  const setting = settingOf(key);
  const value = values[key];
  return setting.describe ? setting.describe(value, config) : setting.text(value) || "none";
}

/**
 * The settings as `velvet account set` shows them, in the pages' order: those of the Alerts
 * page (the first, the VIP threshold, heads the output beside the account's id, as `velvet
 * account list` shows it), where the alert channels follow, then the others.
 */
export function settingLines(
  accountId: string,
  values: AccountSettingValues,
  config: Config,
): { alerts: string[]; others: string[] } {
  const line = (key: AccountSettingKey) =>
    `${settingOf(key).label}: ${describe(key, values, config)}`;
  const onAlerts = SETTING_KEYS.filter((key) => settingOf(key).form?.page === "alerts");
  const others = SETTING_KEYS.filter((key) => settingOf(key).form?.page !== "alerts");
  const [head, ...rest] = onAlerts;
  const heading =
    head === undefined
      ? `Account ${accountId}`
      : `Account ${accountId}: ${settingOf(head).label} ${describe(head, values, config)}`;
  return { alerts: [heading, ...rest.map(line)], others: others.map(line) };
}
