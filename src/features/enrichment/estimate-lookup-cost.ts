/**
 * What looking up a number of new customers can cost at most, for a dry run (the file import's
 * and the store backfill's, so both say the same): each configured paid provider's price per
 * customer (a provider bills only a lookup it answers, so the real cost is usually lower), and
 * whether what is left of this month's budget covers it.
 */
import type { Kysely } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";
import { monthOf } from "../billing/get-usage.js";
import { getBudgetStatus } from "../billing/monthly-budget.js";
import { configuredProviderNames } from "./providers/create-providers.js";

export interface LookupCostEstimate {
  /** Per configured paid provider (a price above 0): the most lookups and what they cost. */
  providers: Array<{ provider: string; lookups: number; amountUsd: string }>;
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
  const paid = configuredProviderNames(providers).flatMap((name) => {
    const price = toMicros(providers[name].priceUsd);
    return price > 0n ? [{ name, amount: price * BigInt(newCustomers) }] : [];
  });
  const perProvider = paid.map(({ name, amount }) => ({
    provider: name,
    lookups: newCustomers,
    amountUsd: fromMicros(amount),
  }));
  const cost = paid.reduce((sum, p) => sum + p.amount, 0n);
  const status = await getBudgetStatus(db, accountId, monthOf(now));
  if (status.budgetUsd === null) {
    return {
      providers: perProvider,
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
    providers: perProvider,
    providerCostUsd: fromMicros(cost),
    budgetUsd: status.budgetUsd,
    budgetLeftUsd: fromMicros(left),
    budgetCovers: cost <= left,
  };
}
