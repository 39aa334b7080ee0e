/**
 * An account's monthly budget for paid provider lookups. Before an enrichment attempt asks the
 * paid providers, it reserves the most those lookups can cost; when their answers are stored it
 * settles (provider-spend.ts): the reservation is released and what was billed is spent. A reservation is one
 * conditional UPDATE (`spent + reserved + this ≤ budget`), so any number of workers on any number
 * of machines never reserve past the budget, on either engine: PostgreSQL re-checks the condition
 * on the row it locked, SQLite has one writer. A crash between reserving and settling leaves the
 * reservation held until the month ends: the budget errs towards spending less, never more.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";

type Db = Kysely<Database> | Transaction<Database>;

export interface Reservation {
  accountId: string;
  month: string;
  micros: number;
}

/** Reserves `micros` of the month's budget; null when they do not fit (nothing is reserved). */
export async function reserveBudget(
  db: Db,
  accountId: string,
  month: string,
  budgetUsd: string,
  micros: number,
): Promise<Reservation | null> {
  await db
    .insertInto("budget_months")
    .values({ account_id: accountId, month })
    .onConflict((oc) => oc.columns(["account_id", "month"]).doNothing())
    .execute();
  const budget = Number(toMicros(budgetUsd));
  const reserved = await db
    .updateTable("budget_months")
    .set((eb) => ({ reserved_micros: eb("reserved_micros", "+", micros) }))
    .where("account_id", "=", accountId)
    .where("month", "=", month)
    .where((eb) =>
      eb(eb(eb("spent_micros", "+", eb.ref("reserved_micros")), "+", micros), "<=", budget),
    )
    .executeTakeFirst();
  return reserved.numUpdatedRows > 0n ? { accountId, month, micros } : null;
}

export interface BudgetStatus {
  budgetUsd: string | null;
  spentUsd: string;
  /** Held by lookups in flight. */
  reservedUsd: string;
  /** Spent as a share of the budget, 0–100 and more; null without a budget. */
  percentUsed: number | null;
}

export async function getBudgetStatus(
  db: Kysely<Database>,
  accountId: string,
  month: string,
): Promise<BudgetStatus> {
  const row = await db
    .selectFrom("accounts")
    .leftJoin("budget_months", (join) =>
      join
        .onRef("budget_months.account_id", "=", "accounts.id")
        .on("budget_months.month", "=", month),
    )
    .select(["accounts.monthly_budget_usd", "spent_micros", "reserved_micros"])
    .where("accounts.id", "=", accountId)
    .executeTakeFirst();
  const budget = row?.monthly_budget_usd ?? null;
  const spent = BigInt(row?.spent_micros ?? 0);
  const budgetMicros = budget === null ? null : toMicros(budget);
  return {
    budgetUsd: budget,
    spentUsd: fromMicros(spent),
    reservedUsd: fromMicros(BigInt(row?.reserved_micros ?? 0)),
    percentUsed:
      budgetMicros === null
        ? null
        : budgetMicros === 0n
          ? 100
          : Math.floor(Number((spent * 100n) / budgetMicros)),
  };
}
