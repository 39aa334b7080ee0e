/**
 * What the customer's whole history of purchases says (`counts = 1`: a cancelled or refunded
 * order is not spend): the lifetime spend and the largest order, in the customer's main
 * currency, with how many orders they come from. One query, grouped by currency, walking the
 * index on (customer_id, counts, created_at, id) (migration 0023) and reading each order's row
 * for its total and currency.
 *
 * The main currency is that of the customer's latest order with a total. Orders in other
 * currencies are not added in (no exchange rate here: adding euros to dollars would be a silent
 * error); they are counted and said, so the value never claims more than it sums.
 *
 * The sum is the database's: exact on PostgreSQL (numeric), a double on SQLite, rounded here to
 * the micro-unit; a lifetime spend is read in whole dollars.
 */
import { type Kysely, sql } from "kysely";
import { preparedQuery } from "../../../db/prepared-query.js";
import type { Database } from "../../../db/schema.js";
import type { LatestOrder } from "./order-history.js";

export type LifetimeSpend =
  | {
      kind: "spend";
      currency: string;
      /** Exact decimal string, to the micro-unit at most. */
      total: string;
      largest: string;
      /** Counted orders with a total in `currency`. */
      orders: number;
      /** Counted orders with a total in other currencies, left out of the sum. */
      otherCurrencyOrders: number;
      otherCurrencies: string[];
    }
  | { kind: "none" };

export async function lifetimeSpend(
  db: Kysely<Database>,
  customerId: string,
  latest: LatestOrder,
): Promise<LifetimeSpend> {
  if (latest.kind === "none") return { kind: "none" };
  const rows = await spendByCurrency.execute(db, { customer_id: customerId });
  const main = rows.find((r) => r.currency === latest.currency);
  if (main === undefined) return { kind: "none" };
  const others = rows.filter((r) => r.currency !== latest.currency);
  return {
    kind: "spend",
    currency: latest.currency,
    total: decimalOf(main.total),
    largest: decimalOf(main.largest),
    orders: Number(main.n),
    otherCurrencyOrders: others.reduce((sum, r) => sum + Number(r.n), 0),
    otherCurrencies: others.map((r) => r.currency).sort(),
  };
}

/** A database number (string on PostgreSQL, number on SQLite) as a decimal string. */
export function decimalOf(value: string | number | null): string {
  if (value === null) return "0";
  if (typeof value === "string") return value;
  const fixed = value.toFixed(6);
  return fixed.replace(/\.?0+$/, "") || "0";
}

// Prepared once (db/prepared-query.ts): it runs on every enrichment and every re-judge.
const spendByCurrency = preparedQuery(["customer_id"], (db, v: { customer_id: string }) =>
  db
    .selectFrom("orders")
    .select((eb) => [
      "currency",
      eb.fn.countAll().as("n"),
      sql<string | number | null>`sum(cast(total as decimal))`.as("total"),
      sql<string | number | null>`max(cast(total as decimal))`.as("largest"),
    ])
    .where("customer_id", "=", v.customer_id)
    .where("counts", "=", sql.lit(1))
    .where("total", "is not", null)
    .groupBy("currency"),
);
