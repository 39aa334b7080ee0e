/**
 * The order-based offline signals: the customer's latest order, how it ranks in the store's own
 * history, and how many orders the customer has placed. One query each.
 *
 * The store comparison looks at the store's latest STORE_WINDOW orders in the same currency that
 * carry a total (the customer's own order included): recent prices are the relevant yardstick,
 * and the window bounds the cost of the query (an index walk on (store_id, created_at), never a
 * scan of a large store's whole history). Below MIN_STORE_ORDERS the rank means little, so it is
 * not computed. Totals are decimal text, compared as NUMERIC in SQL on both engines.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../../../db/schema.js";

export const STORE_WINDOW = 1000;
export const MIN_STORE_ORDERS = 20;

export type LatestOrder = { kind: "order"; total: string; currency: string } | { kind: "none" };

export type StoreRank =
  | {
      kind: "ranked";
      /** Percentile rank 0–100 (one decimal): share of orders below, ties counted half. */
      percentile: number;
      storeOrders: number;
      currency: string;
    }
  | { kind: "too_few_orders"; storeOrders: number; minimum: number; currency: string }
  | { kind: "no_order" };

/** The most recent order that has a total (an order without one says nothing about value). */
export async function latestOrder(db: Kysely<Database>, customerId: string): Promise<LatestOrder> {
  const row = await db
    .selectFrom("orders")
    .select(["total", "currency"])
    .where("customer_id", "=", customerId)
    .where("total", "is not", null)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row?.total
    ? { kind: "order", total: row.total, currency: row.currency }
    : { kind: "none" };
}

export async function customerOrderCount(
  db: Kysely<Database>,
  customerId: string,
): Promise<number> {
  const row = await db
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("customer_id", "=", customerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function rankInStore(
  db: Kysely<Database>,
  storeId: string,
  order: LatestOrder,
): Promise<StoreRank> {
  if (order.kind === "none") return { kind: "no_order" };
  const { rows } = await sql<{
    n: number | string;
    below: number | string;
    equal: number | string;
  }>`
    select count(*) as n,
      coalesce(sum(case when cast(total as numeric) < cast(${order.total} as numeric) then 1 else 0 end), 0) as below,
      coalesce(sum(case when cast(total as numeric) = cast(${order.total} as numeric) then 1 else 0 end), 0) as equal
    from (
      select total from orders
      where store_id = ${storeId} and currency = ${order.currency} and total is not null
      order by created_at desc
      limit ${STORE_WINDOW}
    ) recent`.execute(db);
  const row = rows[0];
  const n = Number(row?.n ?? 0);
  if (n < MIN_STORE_ORDERS) {
    return {
      kind: "too_few_orders",
      storeOrders: n,
      minimum: MIN_STORE_ORDERS,
      currency: order.currency,
    };
  }
  const rank = (Number(row?.below ?? 0) + Number(row?.equal ?? 0) / 2) / n;
  return {
    kind: "ranked",
    percentile: Math.round(rank * 1000) / 10,
    storeOrders: n,
    currency: order.currency,
  };
}
