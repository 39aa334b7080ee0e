/**
 * An account setting declared once: what it holds, where it is stored, how a person types it,
 * who may change it, how the audit trail tells a change, and where it is shown. The reads, the
 * one update path (settings/change-account-settings.ts), the dashboard's fields and the flags of
 * `velvet account set` are built from the declarations in settings/account-settings.ts.
 *
 * Glossary:
 * - setting: one value an account holds (the VIP threshold, the tiers), known by its key in
 *   the list of settings (settings/account-settings.ts).
 * - stored as data: a setting without a `column` is a row of `account_settings` (its key, its
 *   value as JSON); no row: its default. A new setting needs no migration.
 * - column: a setting a hot query joins (the enrichment reads the threshold and the budget with
 *   the customer) lives in its own column of `accounts` instead, added by a migration.
 * - text: the setting as a person types it, in a form field or after a flag; `parse` reads it
 *   (one rule for the dashboard and the command line) and `text` writes it back.
 * - problem: why a text was refused, as a phrase the command line prints as it is and the
 *   dashboard turns into a sentence (`form.error`).
 * - audit detail: the key under which a change is told in its audit event, with the value
 *   before and after (`{ from, to }`).
 */
import type { Selectable, Transaction, Updateable } from "kysely";
import type { Config } from "../../../config.js";
import type { AccountsTable, Database, UserRole } from "../../../db/schema.js";
import type { AuditAction } from "../../audit/audit-actions.js";

/** The columns of `accounts` a setting may live in (not the account's identity or state). */
export type SettingColumn = Exclude<
  keyof AccountsTable,
  "id" | "name" | "created_at" | "closed_at"
>;

type StoredValue<C extends SettingColumn> = Exclude<Updateable<AccountsTable>[C], undefined>;
type ReadValue<C extends SettingColumn> = Selectable<AccountsTable>[C];

/** What a row of `account_settings` holds, as JSON. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | JsonValue[]
  | { [key: string]: JsonValue };

/** A value the audit trail can hold as it is; anything else needs `audit.show`. */
type AuditScalar = string | number | boolean | null;

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

/**
 * How a field is typed on a page. Every page that shows settings maps each kind to a control
 * (dashboard/settings/setting-fields.ts), so a new kind is a type error there until it is.
 */
export type SettingInput =
  | { kind: "number"; min: number; max: number }
  | { kind: "text"; placeholder?: string; autocomplete?: "off" };

/** The dashboard pages that hold settings' fields. */
export type SettingsPage = "alerts" | "billing";

export interface SettingForm {
  page: SettingsPage;
  /** The field's name in the form (and its id, `f-<name>`). */
  name: string;
  /** The heading of its panel on the page. */
  title: string;
  label: string;
  help: string;
  input: SettingInput;
  /** The field must be filled (the form always carries it); otherwise a form without it leaves the setting as it is. */
  required?: boolean;
  /** The sentence under a refused field; default: the problem with a capital letter. */
  error?: (problem: string) => string;
}

export interface SettingFlag {
  /** As commander reads it: "--threshold <0-100>". */
  flag: string;
  description: string;
}

/** What a change may do besides storing the value, in the same transaction. */
export interface SettingChangeContext<T> {
  trx: Transaction<Database>;
  accountId: string;
  from: T;
  to: T;
  now: number;
  config: Config;
}

export interface SettingCore<T> {
  /** How people name it: the command line's output line and the audit trail. */
  label: string;
  /** What a new account holds. */
  default: T;
  parse(text: string): Parsed<T>;
  text(value: T): string;
  /** The value after its label in `velvet account set`'s output; default `text`, or "none" when empty. */
  describe?: (value: T, config: Config) => string;
  /** The lowest team role that may change it on the dashboard; the operator's command line may always. */
  role: UserRole;
  /** false: changes are not audited. */
  audit: false | SettingAudit<T>;
  /** Its field on a dashboard page; null: the command line only. */
  form: SettingForm | null;
  /** Its flag on `velvet account set`; null: not there. */
  cli: SettingFlag | null;
  /** Runs after a change is stored, in the same transaction (not when the value is unchanged). */
  afterChange?: (change: SettingChangeContext<T>) => Promise<void>;
}

type SettingAudit<T> = {
  action: AuditAction;
  /** The key in the event's details; none: the details are `{ from, to }` themselves. */
  detail?: string;
} & ([T] extends [AuditScalar]
  ? { show?: (value: T) => AuditScalar }
  : { show: (value: T) => AuditScalar });

/**
 * In its own column of `accounts`. A value the column cannot hold as it is must say how it is
 * stored, and how it is read back.
 */
type ColumnStorage<T, C extends SettingColumn> = { column: C } & ([T] extends [StoredValue<C>]
  ? { store?: (value: T) => StoredValue<C> }
  : { store: (value: T) => StoredValue<C> }) &
  ([ReadValue<C>] extends [T]
    ? { read?: (stored: ReadValue<C>) => T }
    : { read: (stored: ReadValue<C>) => T });

/**
 * As a row of `account_settings`, its value as JSON. A value JSON cannot hold as it is must say
 * how it is stored, and how it is read back.
 */
type DataStorage<T> = { column?: undefined } & ([T] extends [JsonValue]
  ? { store?: (value: T) => JsonValue; read?: (stored: JsonValue) => T }
  : { store: (value: T) => JsonValue; read: (stored: JsonValue) => T });

export type ColumnSetting<T, C extends SettingColumn> = SettingCore<T> & ColumnStorage<T, C>;
export type DataSetting<T> = SettingCore<T> & DataStorage<T>;

export type AccountSetting<T, C extends SettingColumn = SettingColumn> =
  | ColumnSetting<T, C>
  | DataSetting<T>;

/**
 * Declares a setting, with its value type inferred and its storage checked against its column,
 * or against JSON when it has none; whether it has a form and a flag stays known to the places
 * that use it by name.
 */
export function defineSetting<
  T,
  F extends SettingForm | null,
  L extends SettingFlag | null,
  C extends SettingColumn,
>(setting: ColumnSetting<T, C> & { form: F; cli: L }): ColumnSetting<T, C> & { form: F; cli: L };
export function defineSetting<T, F extends SettingForm | null, L extends SettingFlag | null>(
  setting: DataSetting<T> & { form: F; cli: L },
): DataSetting<T> & { form: F; cli: L };
export function defineSetting<T>(setting: AccountSetting<T>): AccountSetting<T> {
  return setting;
}
