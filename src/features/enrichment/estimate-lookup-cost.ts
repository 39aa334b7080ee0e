/**
 * What looking up a number of new customers can cost at most, for a dry run (file import): each
 * configured paid provider's price per customer (a provider bills only a lookup it answers, so
 * the real cost is usually lower), and whether what is left of this month's budget covers it.
 */
import type { Kysely } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";
import { monthOf } from "../billing/get-usage.js";
import { getBudgetStatus } from "../billing/monthly-budget.js";
import { configuredProviderNames } from "./providers/create-providers.js";

export interface LookupCostEstimate {
  /** The most the configured providers can bill for these customers. */
  providerCostUsd: string;
  /** This month's budget for paid lookups; null: none. */
  budgetUsd: string | null;
  /** What is left of it (never below 0); null without a budget. */
  budgetLeftUsd: string | null;
  /** Whether what is left covers the estimate; null without a budget. */
  budgetCovers: boolean | null;
}

export async function estimateLookupCost(
  db: Kysely<Database>,
  providers: Config["enrichment"],
  accountId: string,
  newCustomers: number,
  now: number,
): Promise<LookupCostEstimate> {
  const perCustomer = configuredProviderNames(providers).reduce(
    (sum, name) => sum + toMicros(providers[name].priceUsd),
    0n,
  );
  const cost = perCustomer * BigInt(newCustomers);
  const status = await getBudgetStatus(db, accountId, monthOf(now));
  if (status.budgetUsd === null) {
    return {
      providerCostUsd: fromMicros(cost),
      budgetUsd: null,
      budgetLeftUsd: null,
      budgetCovers: null,
    };
  }
  const used = toMicros(status.spentUsd) + toMicros(status.reservedUsd);
  const budget = toMicros(status.budgetUsd);
  const left = budget > used ? budget - used : 0n;
  return {
    providerCostUsd: fromMicros(cost),
    budgetUsd: status.budgetUsd,
    budgetLeftUsd: fromMicros(left),
    budgetCovers: cost <= left,
  };
}
