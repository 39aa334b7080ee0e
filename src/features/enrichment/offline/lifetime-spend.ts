/**
 * What the customer's whole history of purchases says (`counts = 1`: a cancelled or refunded
 * order is not spend): the lifetime spend and the largest order, in the customer's main
 * currency, with how many orders they come from, from the customer's purchases by currency
 * (order-history.ts, purchaseHistory: one read with the latest order and the count).
 *
 * The main currency is that of the customer's latest order with a total. Orders in other
 * currencies are not added in (no exchange rate here: adding euros to dollars would be a silent
 * error); they are counted and said, so the value never claims more than it sums.
 *
 * The sum is the database's: exact on PostgreSQL (numeric), a double on SQLite, rounded here to
 * the micro-unit; a lifetime spend is read in whole dollars.
 */
import type { CurrencySpend, LatestOrder } from "./order-history.js";

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

export function lifetimeSpend(byCurrency: CurrencySpend[], latest: LatestOrder): LifetimeSpend {
  if (latest.kind === "none") return { kind: "none" };
  const main = byCurrency.find((r) => r.currency === latest.currency);
  if (main === undefined) return { kind: "none" };
  const others = byCurrency.filter((r) => r.currency !== latest.currency);
  return {
    kind: "spend",
    currency: latest.currency,
    total: decimalOf(main.total),
    largest: decimalOf(main.largest),
    orders: main.n,
    otherCurrencyOrders: others.reduce((sum, r) => sum + r.n, 0),
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
