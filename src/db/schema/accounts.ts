/**
 * The account and what hangs off it directly: the account row (VIP threshold, rate limit, budget,
 * tiers), its stores (the real one and the sample one), the stores' API keys and the account
 * settings stored as data; with the row type of an API key (ApiKey).
 */
import type { Generated, Selectable } from "kysely";

export interface AccountsTable {
  id: string;
  name: string;
  vip_threshold: Generated<number>;
  /** Requests a minute per API key; null: the process default; 0: unlimited. */
  api_rate_limit_per_minute: number | null;
  /** The monthly budget for paid provider lookups, a decimal string in USD; null: none. */
  monthly_budget_usd: Generated<string | null>;
  created_at: number;
  /** Set when the owner closed the account (its customers erased, keys revoked). */
  closed_at: Generated<number | null>;
  /** Named score floors, JSON `[{name, floor}]` highest first (features/customers/tiers.ts). */
  tiers: Generated<string>;
}

export interface StoresTable {
  id: string;
  account_id: string;
  name: string;
  created_at: number;
  /**
   * 1: the account's sample store (features/demo), holding only generated sample data, with no
   * API key and no connection; 0: the account's real store. At most one of each per account.
   */
  sample: Generated<number>;
}

export interface ApiKeysTable {
  id: string;
  store_id: string;
  key_hash: string;
  last4: string;
  created_at: number;
  revoked_at: number | null;
  last_used_at: number | null;
}

/**
 * An account setting stored as data (features/accounts/settings/setting-rows.ts): one row per
 * account and setting written; no row: the setting's default.
 */
export interface AccountSettingsTable {
  account_id: string;
  /** The setting's key in ACCOUNT_SETTINGS. */
  key: string;
  /** The value as JSON text. */
  value: string;
  updated_at: number;
}

export type ApiKey = Selectable<ApiKeysTable>;
