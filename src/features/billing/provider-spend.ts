/**
 * The provider spend ledger: what the enrichment providers billed for an account's lookups, per
 * calendar month (UTC) and provider. Each lookup is added at the price in force when it was made
 * (a price change never reprices the past), in micro-dollars, with one upsert per provider that
 * adds to the row: concurrent workers on any number of machines add up exactly. It holds no
 * customer and nothing about a person, so erasure leaves it as it is, like `usage_charges`.
 */
import type { Kysely, Transaction } from "kysely";
import { preparedQuery } from "../../db/prepared-query.js";
import type { Database, ProviderSpendTable } from "../../db/schema.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";
import { noticeBudgetUse } from "./budget-notices.js";
import { monthOf } from "./get-usage.js";
import type { Reservation } from "./monthly-budget.js";

/** Lookups one provider billed in one enrichment attempt, and the price it bills for each. */
export interface BilledLookups {
  provider: string;
  lookups: number;
  unitPriceUsd: string;
}

export interface ProviderSpend {
  provider: string;
  lookups: number;
  amountUsd: string;
}

export interface ProviderSpendSummary {
  providers: ProviderSpend[];
  /** The sum over the providers. */
  providerCostUsd: string;
}

// Prepared once (db/prepared-query.ts): every enrichment runs these in the transaction that
// stores its answers, and building them through Kysely each time cost more than running them.
const addProviderSpend = preparedQuery(
  ["account_id", "month", "provider", "lookups", "amount_micros", "updated_at"],
  (db, v: ProviderSpendTable) =>
    db
      .insertInto("provider_spend")
      .values(v)
      .onConflict((oc) =>
        oc.columns(["account_id", "month", "provider"]).doUpdateSet((eb) => ({
          lookups: eb("provider_spend.lookups", "+", eb.ref("excluded.lookups")),
          amount_micros: eb("provider_spend.amount_micros", "+", eb.ref("excluded.amount_micros")),
          updated_at: eb.ref("excluded.updated_at"),
        })),
      ),
);

const addBudgetSpend = preparedQuery(
  ["account_id", "month", "spent", "released"],
  (db, v: { account_id: string; month: string; spent: number; released: number }) =>
    db
      .insertInto("budget_months")
      .values({ account_id: v.account_id, month: v.month, spent_micros: v.spent })
      .onConflict((oc) =>
        oc.columns(["account_id", "month"]).doUpdateSet((eb) => ({
          spent_micros: eb("budget_months.spent_micros", "+", v.spent),
          reserved_micros: eb("budget_months.reserved_micros", "-", v.released),
        })),
      ),
);

/**
 * Adds billed lookups to the account's ledger and to the month's budget, and releases the
 * attempt's reservation if it made one; call it in the transaction that stores the answers. The
 * month is the reservation's (a lookup reserved on the 31st at 23:59 is spent in that month).
 */
export async function recordProviderSpend(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  billed: BilledLookups[],
  now: number,
  reservation: Reservation | null = null,
): Promise<void> {
  const month = reservation?.month ?? monthOf(now);
  let total = 0;
  for (const b of billed) {
    if (b.lookups <= 0) continue;
    const amount = Number(toMicros(b.unitPriceUsd) * BigInt(b.lookups));
    total += amount;
    await addProviderSpend.execute(db, {
      account_id: accountId,
      month,
      provider: b.provider,
      lookups: b.lookups,
      amount_micros: amount,
      updated_at: now,
    });
  }
  const released = reservation?.micros ?? 0;
  if (total === 0 && released === 0) return;
  await addBudgetSpend.execute(db, { account_id: accountId, month, spent: total, released });
  if (total > 0) await noticeBudgetUse(db, accountId, month, now);
}

/** The month's spend per provider (those that billed anything), by provider name. */
export async function getProviderSpend(
  db: Kysely<Database>,
  accountId: string,
  month: string,
): Promise<ProviderSpendSummary> {
  const rows = await db
    .selectFrom("provider_spend")
    .select(["provider", "lookups", "amount_micros"])
    .where("account_id", "=", accountId)
    .where("month", "=", month)
    .orderBy("provider")
    .execute();
  let total = 0n;
  const providers = rows.map((r) => {
    const amount = BigInt(r.amount_micros);
    total += amount;
    return { provider: r.provider, lookups: Number(r.lookups), amountUsd: fromMicros(amount) };
  });
  return { providers, providerCostUsd: fromMicros(total) };
}
