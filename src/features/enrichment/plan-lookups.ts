/**
 * Which providers an attempt may ask, under the account's monthly budget. Free providers
 * (price 0) are always asked. Paid ones are asked only once the most they can bill is reserved
 * against the budget (billing/monthly-budget.ts); when it does not fit, the attempt goes on with
 * the free ones, and the customer is scored on the free signals and looked up fully when the
 * budget allows (resume-deferred-lookups.ts).
 */
import type { Kysely } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { toMicros } from "../../lib/decimal.js";
import { noticeBudgetStopped } from "../billing/budget-notices.js";
import { monthOf } from "../billing/get-usage.js";
import { type Reservation, reserveBudget } from "../billing/monthly-budget.js";
import type { EnrichmentProvider, ProviderName } from "./providers/provider.js";

export interface LookupPlan {
  ask: EnrichmentProvider[];
  /** The paid providers the budget stopped. */
  stopped: ProviderName[];
  /** Settled with the answers (billing/provider-spend.ts). */
  reservation: Reservation | null;
}

export async function planLookups(
  db: Kysely<Database>,
  prices: Config["enrichment"],
  account: { id: string; monthlyBudgetUsd: string | null },
  pending: EnrichmentProvider[],
  now: number,
): Promise<LookupPlan> {
  const priceOf = (p: EnrichmentProvider) => Number(toMicros(prices[p.name].priceUsd));
  const paid = pending.filter((p) => priceOf(p) > 0);
  if (account.monthlyBudgetUsd === null || paid.length === 0) {
    return { ask: pending, stopped: [], reservation: null };
  }
  const most = paid.reduce((sum, p) => sum + priceOf(p), 0);
  const month = monthOf(now);
  const reservation = await reserveBudget(db, account.id, month, account.monthlyBudgetUsd, most);
  if (reservation !== null) return { ask: pending, stopped: [], reservation };
  await noticeBudgetStopped(db, account.id, month, now);
  return {
    ask: pending.filter((p) => priceOf(p) === 0),
    stopped: paid.map((p) => p.name),
    reservation: null,
  };
}

/** The explanation's line for a customer scored without the lookups the budget stopped. */
export function budgetStoppedSignal(stopped: ProviderName[]) {
  return {
    source: "profile",
    signal: "paid_lookups",
    value: `stopped by the monthly budget (${stopped.join(", ")}); looked up when the budget allows`,
    points: 0,
  };
}
