/**
 * Table types for Kysely. Both engines store the same shapes: ids are UUID text, instants are
 * integer milliseconds since the epoch (UTC), flags are 0/1 integers, money is an exact decimal
 * string, and structured values are JSON text. Keeping one representation means one set of
 * queries and no per-engine conversions.
 */
import type { Generated, Insertable, Selectable, Updateable } from "kysely";

export type EnrichmentStatus = "pending" | "enriched" | "failed";

export interface AccountsTable {
  id: string;
  name: string;
  vip_threshold: Generated<number>;
  created_at: number;
}

export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  email_normalized: string;
  password_hash: string | null;
  created_at: number;
}

export interface StoresTable {
  id: string;
  account_id: string;
  name: string;
  created_at: number;
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

export interface CustomersTable {
  id: string;
  store_id: string;
  email: string;
  email_normalized: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zipcode: string | null;
  address_country: string | null;
  enrichment_status: EnrichmentStatus;
  created_at: number;
  updated_at: number;
}

export interface OrdersTable {
  id: string;
  store_id: string;
  customer_id: string;
  external_order_id: string | null;
  order_number: string | null;
  total: string | null;
  currency: string;
  created_at: number;
}

export interface UsageChargesTable {
  id: string;
  account_id: string;
  store_id: string;
  customer_id: string;
  unit_price_usd: string;
  created_at: number;
}

export interface JobsTable {
  id: string;
  task: string;
  payload: string;
  job_key: string | null;
  run_at: number;
  attempts: Generated<number>;
  max_attempts: number;
  last_error: string | null;
  locked_by: string | null;
  locked_until: number | null;
  created_at: number;
  updated_at: number;
}

export interface Database {
  accounts: AccountsTable;
  users: UsersTable;
  stores: StoresTable;
  api_keys: ApiKeysTable;
  customers: CustomersTable;
  orders: OrdersTable;
  usage_charges: UsageChargesTable;
  jobs: JobsTable;
}

export type Customer = Selectable<CustomersTable>;
export type NewCustomer = Insertable<CustomersTable>;
export type Order = Selectable<OrdersTable>;
export type Job = Selectable<JobsTable>;
export type JobUpdate = Updateable<JobsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
