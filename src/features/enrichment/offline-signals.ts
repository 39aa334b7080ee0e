/**
 * The signals that need no provider and always run: the latest order's value (absolute, and
 * against the store's own history), corporate versus free-mail domain, repeat purchases in the
 * store, the customer's lifetime spend and largest order (offline/lifetime-spend.ts), and the
 * affluent-area lookup of the customer's ZIP code. They are gathered at the enrichment and
 * again at every re-judge (rejudge/), each time from the customer's whole history.
 *
 * Currency: the order keeps its amount and currency as submitted. Absolute value bands are in
 * USD: an order in another currency is converted with the latest euro reference rates held
 * (offline/order-in-usd.ts), the rate, its date and source named in the reason; a currency
 * without a rate scores nothing there, and says so. The store comparison works in any currency,
 * against orders in the same one.
 */
import type { Kysely } from "kysely";
import type { Customer, Database } from "../../db/schema.js";
import { type AreaIncome, areaIncome } from "./offline/area-income.js";
import { classifyEmailDomain, type EmailDomain } from "./offline/email-domain.js";
import { type LifetimeSpend, lifetimeSpend } from "./offline/lifetime-spend.js";
import {
  type LatestOrder,
  purchaseHistory,
  rankInStore,
  type StoreRank,
} from "./offline/order-history.js";
import { valueInUsd } from "./offline/order-in-usd.js";
import type { StoreWindows } from "./offline/store-order-window.js";

export type { AreaIncome, EmailDomain, LatestOrder, LifetimeSpend, StoreRank };

export interface OfflineSignals {
  latestOrder: LatestOrder;
  storeRank: StoreRank;
  emailDomain: EmailDomain;
  /** Orders the customer has placed in this store (all of them, with or without a total). */
  orderCount: number;
  /** The counted orders' sum and largest, in the latest order's currency. */
  lifetime: LifetimeSpend;
  area: AreaIncome;
}

/**
 * What the offline signals need to know of the customer. All of it is written once, when the
 * customer is created (later orders never overwrite it), so the caller's earlier read of the
 * row is as good as a fresh one.
 */
export type OfflineSubject = Pick<
  Customer,
  "id" | "store_id" | "email_normalized" | "address_zipcode" | "address_country"
>;

export async function gatherOfflineSignals(
  db: Kysely<Database>,
  windows: StoreWindows,
  customer: OfflineSubject,
  now: number,
): Promise<OfflineSignals> {
  // Sequential: a few sub-millisecond queries, run inside the transaction that stores the
  // result (save-enrichment.ts), on its one connection; the purchases are one of them.
  const history = await purchaseHistory(db, customer.id);
  const order = await withUsdValue(db, history.latest);
  const storeRank = await rankInStore(db, windows, customer.store_id, order, now);
  const lifetime = lifetimeSpend(history.byCurrency, order);
  const area = await areaIncome(db, customer.address_zipcode, customer.address_country);
  return {
    latestOrder: order,
    storeRank,
    emailDomain: classifyEmailDomain(customer.email_normalized),
    orderCount: history.orderCount,
    lifetime,
    area,
  };
}

/** The order with its dollar value when it is in another currency (one indexed read). */
async function withUsdValue(db: Kysely<Database>, order: LatestOrder): Promise<LatestOrder> {
  if (order.kind === "none" || order.currency === "USD") return order;
  return { ...order, usd: await valueInUsd(db, order.total, order.currency) };
}
