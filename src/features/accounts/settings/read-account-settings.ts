/**
 * Reading and storing the declared settings, wherever each lives: a column of `accounts` or a
 * row of `account_settings` (setting-rows.ts). Every function takes the list of settings, the
 * product's (ACCOUNT_SETTINGS) unless told otherwise.
 */
import type { Kysely, Selectable, Transaction, Updateable } from "kysely";
import type { AccountsTable, Database } from "../../../db/schema.js";
import type { SettingColumn } from "./account-setting.js";
import {
  ACCOUNT_SETTINGS,
  type AccountSettingValues,
  type AnySetting,
  type SettingCatalog,
  type SettingValuesOf,
} from "./account-settings.js";
import { readSettingRows, type SettingRows, writeSettingRows } from "./setting-rows.js";

type Db = Kysely<Database> | Transaction<Database>;
type Product = typeof ACCOUNT_SETTINGS;

/** The columns of `accounts` a list's settings live in. */
export function columnsOf(catalog: SettingCatalog): SettingColumn[] {
  return Object.values(catalog).flatMap((s) => (s.column === undefined ? [] : [s.column]));
}

/** The keys of a list's settings stored as data. */
export function dataKeysOf(catalog: SettingCatalog): string[] {
  return Object.entries(catalog).flatMap(([key, s]) => (s.column === undefined ? [key] : []));
}

/** The columns the product's settings live in, as the `accounts` table names them. */
export const SETTING_COLUMNS: readonly SettingColumn[] = columnsOf(ACCOUNT_SETTINGS);

/** The same, qualified for a query that joins `accounts` to another table. */
export const QUALIFIED_SETTING_COLUMNS = SETTING_COLUMNS.map(
  (column) => `accounts.${column}` as const,
);

export type SettingsRow = Partial<Pick<Selectable<AccountsTable>, SettingColumn>>;

/** The value as the setting's storage holds it: its column's type, or JSON. */
function storedValue(setting: AnySetting, value: unknown): unknown {
  return setting.store ? setting.store(value as never) : value;
}

/** How the update path compares values: as they are stored. */
export function storedText(setting: AnySetting, value: unknown): string {
  return JSON.stringify(storedValue(setting, value));
}

function readValue(setting: AnySetting, stored: unknown): unknown {
  return setting.read ? setting.read(stored as never) : stored;
}

/** Every setting's value from a row of its columns and the account's setting rows. */
export function settingsOf<S extends SettingCatalog = Product>(
  row: SettingsRow,
  rows: SettingRows,
  catalog: S = ACCOUNT_SETTINGS as unknown as S,
): SettingValuesOf<S> {
  const values: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(catalog)) {
    if (setting.column !== undefined) {
      values[key] = readValue(setting, row[setting.column]);
      continue;
    }
    const text = rows.get(key);
    values[key] = text === undefined ? setting.default : readValue(setting, JSON.parse(text));
  }
  return values as SettingValuesOf<S>;
}

/** The account's setting rows of a list (no query when none is stored as data). */
export function readDataSettings(
  db: Db,
  accountId: string,
  catalog: SettingCatalog = ACCOUNT_SETTINGS,
): Promise<SettingRows> {
  return readSettingRows(db, accountId, dataKeysOf(catalog));
}

/** The account's settings; null when there is no such account. */
export async function readAccountSettings<S extends SettingCatalog = Product>(
  db: Db,
  accountId: string,
  catalog: S = ACCOUNT_SETTINGS as unknown as S,
): Promise<SettingValuesOf<S> | null> {
  const row = await db
    .selectFrom("accounts")
    .select(["id", ...columnsOf(catalog)])
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!row) return null;
  return settingsOf(row as SettingsRow, await readDataSettings(db, accountId, catalog), catalog);
}

/** The columns to write for the given values (a setting left out, or stored as data, is not). */
export function storedSettings(
  values: Partial<Record<string, unknown>>,
  catalog: SettingCatalog = ACCOUNT_SETTINGS,
): Updateable<AccountsTable> {
  const columns: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(catalog)) {
    const value = values[key];
    if (value === undefined || setting.column === undefined) continue;
    columns[setting.column] = storedValue(setting, value);
  }
  return columns as Updateable<AccountsTable>;
}

/** Writes the given values where each setting lives; a setting left out stays as it is. */
export async function writeSettings<S extends SettingCatalog = Product>(
  db: Db,
  accountId: string,
  values: Partial<SettingValuesOf<S>>,
  now: number,
  catalog: S = ACCOUNT_SETTINGS as unknown as S,
): Promise<void> {
  const given = values as Partial<Record<string, unknown>>;
  const columns = storedSettings(given, catalog);
  if (Object.keys(columns).length > 0)
    await db.updateTable("accounts").set(columns).where("id", "=", accountId).execute();
  const rows = new Map<string, string>();
  for (const key of dataKeysOf(catalog)) {
    const setting = catalog[key];
    if (setting !== undefined && given[key] !== undefined)
      rows.set(key, storedText(setting, given[key]));
  }
  await writeSettingRows(db, accountId, rows, now);
}

/**
 * The columns of a new account: every column setting's default, with the given values instead.
 * A setting stored as data needs no row until it is changed: its default is read.
 */
export function newAccountSettings(
  values: Partial<AccountSettingValues> = {},
): Updateable<AccountsTable> {
  const all: Record<string, unknown> = {};
  const given: Partial<Record<string, unknown>> = values;
  for (const [key, setting] of Object.entries(ACCOUNT_SETTINGS as SettingCatalog))
    all[key] = given[key] === undefined ? setting.default : given[key];
  return storedSettings(all);
}
