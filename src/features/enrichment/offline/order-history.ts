/**
 * The order-based offline signals: the customer's purchases (their latest order, how many they
 * placed, what they spent in each currency: one read, purchaseHistory) and how the latest order
 * ranks in the store's own history. Only purchases are read (`counts = 1`): a cancelled,
 * refunded or voided order (store-sync/order-status.ts) says nothing about what the customer
 * spends.
 *
 * The store comparison looks at the store's latest STORE_WINDOW orders in the same currency that
 * carry a total (the customer's own order included; store-order-window.ts reads and keeps them):
 * recent prices are the relevant yardstick, and the window bounds the cost (an index walk on
 * (store_id, created_at, id), never a scan of a large store's whole history). Below MIN_STORE_ORDERS
 * the store's own rank means little: an order is then ranked against typical online orders
 * (order-value-prior.ts, in dollars) until the store has its own, so the signal works from the
 * first order; an order in another currency is ranked there by its value converted with the
 * reference rates (order-in-usd.ts), and waits for the store's own orders when there is no rate.
 */
import { type Kysely, sql } from "kysely";
import { preparedQuery } from "../../../db/prepared-query.js";
import type { Database } from "../../../db/schema.js";
import type { UsdValue } from "./order-in-usd.js";
import { priorPercentile } from "./order-value-prior.js";
import { countBelowAndEqual, type StoreWindows } from "./store-order-window.js";

export const MIN_STORE_ORDERS = 20;

export type LatestOrder =
  | {
      kind: "order";
      total: string;
      currency: string;
      /** Its value in dollars, for an order in another currency (absent for a USD order). */
      usd?: UsdValue;
    }
  | { kind: "none" };

export type StoreRank =
  | {
      kind: "ranked";
      /** Percentile rank 0–100 (one decimal): share of orders below, ties counted half. */
      percentile: number;
      storeOrders: number;
      currency: string;
    }
  | {
      kind: "prior";
      /** Percentile rank 0–100 (one decimal) among typical online orders, in dollars. */
      percentile: number;
      storeOrders: number;
      minimum: number;
      currency: string;
      /** The dollar value ranked, for an order in another currency (absent for a USD order). */
      usdTotal?: string;
    }
  | { kind: "too_few_orders"; storeOrders: number; minimum: number; currency: string }
  | { kind: "no_order" };

/** The customer's counted orders with a total in one currency: how many, their sum and largest. */
export interface CurrencySpend {
  currency: string;
  /** Orders with a total in this currency. */
  n: number;
  /** The database's sum and largest: a string on PostgreSQL (numeric), a number on SQLite. */
  total: string | number | null;
  largest: string | number | null;
}

export interface PurchaseHistory {
  /** The most recent purchase that has a total (an order without one says nothing about value). */
  latest: LatestOrder;
  /** Purchases the customer has placed in this store, with or without a total. */
  orderCount: number;
  /** Per currency, the purchases with a total (lifetime-spend.ts reads them). */
  byCurrency: CurrencySpend[];
}

/**
 * Everything the offline signals read of the customer's purchases, in one statement: the latest
 * order with a total, and per currency how many purchases, how many with a total, their sum and
 * largest. On PostgreSQL one round trip instead of three, inside the transaction that stores
 * the result.
 */
export async function purchaseHistory(
  db: Kysely<Database>,
  customerId: string,
): Promise<PurchaseHistory> {
  const rows = await readPurchases.execute(db, { customer_id: customerId });
  let latest: LatestOrder = { kind: "none" };
  let orderCount = 0;
  const byCurrency: CurrencySpend[] = [];
  for (const r of rows) {
    if (r.part === "latest") {
      if (r.total) latest = { kind: "order", total: r.total, currency: r.currency };
      continue;
    }
    orderCount += Number(r.orders);
    const n = Number(r.with_total);
    if (n > 0) byCurrency.push({ currency: r.currency, n, total: r.sum, largest: r.largest });
  }
  return { latest, orderCount, byCurrency };
}

/** The most recent purchase that has a total (an order without one says nothing about value). */
export async function latestOrder(db: Kysely<Database>, customerId: string): Promise<LatestOrder> {
  return (await purchaseHistory(db, customerId)).latest;
}

export async function customerOrderCount(
  db: Kysely<Database>,
  customerId: string,
): Promise<number> {
  return (await purchaseHistory(db, customerId)).orderCount;
}

// Prepared once (db/prepared-query.ts): it runs for every enrichment and every re-judge. Both
// parts walk the index on (customer_id, counts, created_at, id) (migration 0023). The latest
// order is a subquery because SQLite allows ORDER BY and LIMIT only at the end of a compound
// select. The LIMIT is a literal: SQLite runs `LIMIT ?` markedly slower than `LIMIT 1`
// (≈ 9 vs 4.5 µs alone), and the value never changes; so is `counts = 1`.
const readPurchases = preparedQuery(["customer_id"], (db, v: { customer_id: string }) =>
  db
    .selectFrom((eb) =>
      eb
        .selectFrom("orders")
        .select(["total", "currency"])
        .where("customer_id", "=", v.customer_id)
        .where("counts", "=", sql.lit(1))
        .where("total", "is not", null)
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(sql.lit(1))
        .as("latest"),
    )
    .select([
      sql<string>`'latest'`.as("part"),
      "latest.currency",
      "latest.total",
      sql<number | string>`0`.as("orders"),
      sql<number | string>`0`.as("with_total"),
      sql<string | number | null>`null`.as("sum"),
      sql<string | number | null>`null`.as("largest"),
    ])
    .unionAll((eb) =>
      eb
        .selectFrom("orders")
        .select((o) => [
          sql<string>`'currency'`.as("part"),
          "currency",
          sql<string | null>`null`.as("total"),
          o.fn.countAll<number | string>().as("orders"),
          o.fn.count<number | string>("total").as("with_total"),
          sql<string | number | null>`sum(cast(total as decimal))`.as("sum"),
          sql<string | number | null>`max(cast(total as decimal))`.as("largest"),
        ])
        .where("customer_id", "=", v.customer_id)
        .where("counts", "=", sql.lit(1))
        .groupBy("currency"),
    ),
);

export async function rankInStore(
  db: Kysely<Database>,
  windows: StoreWindows,
  storeId: string,
  order: LatestOrder,
  now: number,
): Promise<StoreRank> {
  if (order.kind === "none") return { kind: "no_order" };
  const totals = await windows.read(db, storeId, order.currency, now);
  const n = totals.length;
  if (n < MIN_STORE_ORDERS && order.currency === "USD") {
    return {
      kind: "prior",
      percentile: priorPercentile(Number(order.total)),
      storeOrders: n,
      minimum: MIN_STORE_ORDERS,
      currency: "USD",
    };
  }
  if (n < MIN_STORE_ORDERS && order.usd?.kind === "converted") {
    return {
      kind: "prior",
      percentile: priorPercentile(Number(order.usd.usdTotal)),
      storeOrders: n,
      minimum: MIN_STORE_ORDERS,
      currency: order.currency,
      usdTotal: order.usd.usdTotal,
    };
  }
  if (n < MIN_STORE_ORDERS) {
    return {
      kind: "too_few_orders",
      storeOrders: n,
      minimum: MIN_STORE_ORDERS,
      currency: order.currency,
    };
  }
  const { below, equal } = countBelowAndEqual(totals, Number(order.total));
  const rank = (below + equal / 2) / n;
  return {
    kind: "ranked",
    percentile: Math.round(rank * 1000) / 10,
    storeOrders: n,
    currency: order.currency,
  };
}
