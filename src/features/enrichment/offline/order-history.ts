/**
 * The order-based offline signals: the customer's latest order, how it ranks in the store's own
 * history, and how many orders the customer has placed. One query each. Only purchases are read
 * (`counts = 1`): a cancelled, refunded or voided order (store-sync/order-status.ts) says nothing
 * about what the customer spends.
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

/** The most recent purchase that has a total (an order without one says nothing about value). */
export async function latestOrder(db: Kysely<Database>, customerId: string): Promise<LatestOrder> {
  const row = await findLatestOrder.executeTakeFirst(db, { customer_id: customerId });
  return row?.total
    ? { kind: "order", total: row.total, currency: row.currency }
    : { kind: "none" };
}

export async function customerOrderCount(
  db: Kysely<Database>,
  customerId: string,
): Promise<number> {
  const row = await countOrders.executeTakeFirst(db, { customer_id: customerId });
  return Number(row?.n ?? 0);
}

// Prepared once (db/prepared-query.ts): they run for every enrichment. The LIMIT is a literal:
// SQLite runs `LIMIT ?` markedly slower than `LIMIT 1` (≈ 9 vs 4.5 µs alone, 78 vs 22 µs
// on the busy server), and the value never changes. `counts = 1` is a literal too: both walk
// the index on (customer_id, counts, created_at, id) (migration 0023), the count without
// reading a row.
const findLatestOrder = preparedQuery(["customer_id"], (db, v: { customer_id: string }) =>
  db
    .selectFrom("orders")
    .select(["total", "currency"])
    .where("customer_id", "=", v.customer_id)
    .where("counts", "=", sql.lit(1))
    .where("total", "is not", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(sql.lit(1)),
);

const countOrders = preparedQuery(["customer_id"], (db, v: { customer_id: string }) =>
  db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("customer_id", "=", v.customer_id)
    .where("counts", "=", sql.lit(1)),
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
