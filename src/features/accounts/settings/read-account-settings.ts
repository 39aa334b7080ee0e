/** Reading and storing the declared settings: the columns, a row's values, the defaults. */
import type { Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { AccountsTable, Database } from "../../../db/schema.js";
import type { SettingColumn } from "./account-setting.js";
import {
  type AccountSettingValues,
  type AnySetting,
  SETTING_KEYS,
  settingOf,
} from "./account-settings.js";

type Db = Kysely<Database> | Transaction<Database>;

/** The columns the settings live in, as the `accounts` table names them. */
export const SETTING_COLUMNS: readonly SettingColumn[] = SETTING_KEYS.map(
  (key) => settingOf(key).column,
);

/** The same, qualified for a query that joins `accounts` to another table. */
export const QUALIFIED_SETTING_COLUMNS = SETTING_COLUMNS.map(
  (column) => `accounts.${column}` as const,
);

export type SettingsRow = Pick<Selectable<AccountsTable>, SettingColumn>;

function readValue(setting: AnySetting, stored: unknown): unknown {
  return setting.read ? setting.read(stored as never) : stored;
}

/** Every setting's value from a row that holds their columns. */
export function settingsOf(row: SettingsRow): AccountSettingValues {
  const values: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const setting = settingOf(key);
    values[key] = readValue(setting, row[setting.column]);
  }
  return values as AccountSettingValues;
}

/** The account's settings; null when there is no such account. */
export async function readAccountSettings(
  db: Db,
  accountId: string,
): Promise<AccountSettingValues | null> {
  const row = await db
    .selectFrom("accounts")
    .select(SETTING_COLUMNS)
    .where("id", "=", accountId)
    .executeTakeFirst();
  return row ? settingsOf(row as SettingsRow) : null;
}

/** The columns to write for the given values (a setting left out is not written). */
export function storedSettings(values: Partial<AccountSettingValues>): Updateable<AccountsTable> {
  const columns: Record<string, unknown> = {};
  for (const key of SETTING_KEYS) {
    const value = values[key];
    if (value === undefined) continue;
    const setting = settingOf(key);
    columns[setting.column] = setting.store ? setting.store(value) : value;
  }
  return columns as Updateable<AccountsTable>;
}

/** What a new account holds: every setting's default, with the given values instead. */
export function newAccountSettings(
  values: Partial<AccountSettingValues> = {},
): Updateable<AccountsTable> {
  const all: Record<string, unknown> = {};
  for (const key of SETTING_KEYS)
    all[key] = values[key] === undefined ? settingOf(key).default : values[key];
  return storedSettings(all as AccountSettingValues);
}
