/**
 * An account's monthly budget for paid provider lookups. Before an enrichment attempt asks the
 * paid providers, it reserves the most those lookups can cost; when their answers are stored it
 * settles (provider-spend.ts): what was billed goes into the ledger and the reservation is
 * released, in one transaction. A reservation is one conditional UPDATE of the account's month
 * row (`spent + reserved + this ≤ budget`, spent: the ledger's sum, month-spend.ts), so any
 * number of workers on any number of machines never reserve past the budget, on either engine:
 * PostgreSQL re-checks the condition on the row it locked, SQLite has one writer. A crash
 * between reserving and settling leaves the reservation held until the month ends: the budget
 * errs towards spending less, never more.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";
import { monthSpendMicros } from "./month-spend.js";

export interface Reservation {
  accountId: string;
  month: string;
  micros: number;
}

/**
 * Reserves `micros` of the month's budget; null when they do not fit (nothing is reserved).
 * One conditional UPDATE of the month's row (made if missing). A reservation or settlement of
 * the same month in flight holds that row: PostgreSQL waits for it, then checks the condition
 * again on the row as committed, with the ledger's sum as the statement first read it. That sum
 * misses what a settlement it waited for spent, but the settlement released a reservation at
 * least as large, so the check never lets through what the whole truth would refuse.
 */
export async function reserveBudget(
  db: Kysely<Database> | Transaction<Database>,
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
      eb(
        eb(eb(monthSpendMicros(accountId, month), "+", eb.ref("reserved_micros")), "+", micros),
        "<=",
        budget,
      ),
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
    .select([
      "accounts.monthly_budget_usd",
      "reserved_micros",
      monthSpendMicros(sql.ref<string>("accounts.id"), month).as("spent_micros"),
    ])
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
