/**
 * What enrichment costs an account (features/billing): the usage charged per customer, each
 * provider's spend per month, and each month's budget reservations and notices.
 */
import type { Generated } from "kysely";

export interface UsageChargesTable {
  id: string;
  account_id: string;
  store_id: string;
  /** Null once the customer was erased: billing keeps amount, price and month, not the person. */
  customer_id: string | null;
  unit_price_usd: string;
  created_at: number;
}

/** Per account, month (`YYYY-MM`, UTC) and provider: the lookups it billed and their cost. */
export interface ProviderSpendTable {
  account_id: string;
  month: string;
  provider: string;
  /** One of the provider's month rows an enrichment adds to (0–15); reads sum them. */
  shard: Generated<number>;
  lookups: number;
  amount_micros: number;
  updated_at: number;
}

/** Per account and month: what paid lookups in flight reserved, and the budget notices sent. */
export interface BudgetMonthsTable {
  account_id: string;
  month: string;
  reserved_micros: Generated<number>;
  notified_80: Generated<number>;
  notified_100: Generated<number>;
}
