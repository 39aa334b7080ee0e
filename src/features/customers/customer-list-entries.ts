/**
 * The lists to take away (`velvet customer list`, the Customers page's "Download CSV"): every
 * customer the filters match, store by store in first-seen order, read in batches (keyset on
 * (created_at, id) after the last one read, so each batch is a range of the store's
 * (store_id, created_at) index however deep the list goes) and yielded one by one as each
 * batch arrives, so a million customers never sit in memory together: the caller writes as it
 * goes.
 *
 * Per customer: e-mail, name, score, tier (tiers.ts), VIP and since when, and the lifetime spend
 * and order count of the orders that count (`orders.counts = 1`: not cancelled, refunded or
 * voided). The spend is in the currency of the latest counted order and sums only that
 * currency's orders (amounts in different currencies are not added together); the order count
 * is every counted order, as the Customers page shows it.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { fromMicros, isDecimalString, toMicros } from "../../lib/decimal.js";
import { accountTiers } from "./account-tiers.js";
import { type CustomerFilter, filterCustomers } from "./filter-customers.js";
import { tierOf } from "./tiers.js";

export const CUSTOMER_LIST_BATCH = 1_000;

export interface CustomerListEntry {
  email: string;
  name: string;
  score: number | null;
  tier: string | null;
  vip: boolean;
  /** ISO instant the customer was found a VIP; null when not a VIP. */
  vipSince: string | null;
  /** Decimal string in `currency`; null when no counted order has a total. */
  lifetimeSpend: string | null;
  currency: string | null;
  orderCount: number;
}

export const CUSTOMER_LIST_COLUMNS = [
  "email",
  "name",
  "score",
  "tier",
  "vip",
  "vip_since",
  "lifetime_spend",
  "currency",
  "order_count",
] as const;

interface Spend {
  spend: string | null;
  currency: string | null;
  count: number;
}

/** Counted orders of one batch of customers, latest first, summed per customer in JS (exact). */
async function spendOf(db: Kysely<Database>, ids: string[]): Promise<Map<string, Spend>> {
  const orders = await db
    .selectFrom("orders")
    .select(["customer_id", "total", "currency"])
    .where("customer_id", "in", ids)
    .where("counts", "=", 1)
    .orderBy("customer_id")
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute();
  const sums = new Map<string, { micros: bigint | null; currency: string; count: number }>();
  for (const o of orders) {
    const s = sums.get(o.customer_id);
    // The first row of a customer is their latest counted order: its currency is the list's.
    const entry = s ?? { micros: null, currency: o.currency, count: 0 };
    entry.count++;
    if (o.currency === entry.currency && o.total !== null && isDecimalString(o.total))
      entry.micros = (entry.micros ?? 0n) + toMicros(o.total);
    if (s === undefined) sums.set(o.customer_id, entry);
  }
  const out = new Map<string, Spend>();
  for (const [id, s] of sums)
    out.set(id, {
      spend: s.micros === null ? null : fromMicros(s.micros),
      currency: s.currency,
      count: s.count,
    });
  return out;
}

export async function* customerListEntries(
  db: Kysely<Database>,
  accountId: string,
  filter: CustomerFilter,
  options: { batchSize?: number } = {},
): AsyncGenerator<CustomerListEntry> {
  const batchSize = options.batchSize ?? CUSTOMER_LIST_BATCH;
  const tiers = await accountTiers(db, accountId);
  // Store by store (an account has its real store and perhaps a sample one), so each batch is a
  // range of the (store_id, created_at) index: reading page n costs what page 1 does.
  const stores = await db
    .selectFrom("stores")
    .select("id")
    .where("account_id", "=", accountId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  for (const { id: storeId } of stores) {
    let after: { createdAt: number; id: string } | null = null;
    for (;;) {
      let query = filterCustomers(db, accountId, filter, tiers)
        .where("customers.store_id", "=", storeId)
        .select([
          "customers.id",
          "customers.created_at",
          "customers.email",
          "customers.first_name",
          "customers.last_name",
          "enrichments.score",
          "enrichments.vip",
          "enrichments.vip_since",
        ])
        .orderBy("customers.created_at")
        .orderBy("customers.id")
        .limit(batchSize);
      if (after !== null) {
        const last = after;
        query = query
          .where("customers.created_at", ">=", last.createdAt)
          .where((eb) =>
            eb.or([
              eb("customers.created_at", ">", last.createdAt),
              eb("customers.id", ">", last.id),
            ]),
          );
      }
      const batch = await query.execute();
      if (batch.length === 0) break;
      const spend = await spendOf(
        db,
        batch.map((c) => c.id),
      );
      for (const c of batch) {
        const s = spend.get(c.id);
        const vip = c.vip === 1;
        yield {
          email: c.email,
          name: `${c.first_name} ${c.last_name}`.trim(),
          score: c.score,
          tier: tierOf(c.score, tiers),
          vip,
          // Since when the customer is the VIP they are now (enrichment or a later order's
          // re-judge: enrichment/rejudge).
          vipSince:
            vip && c.vip_since !== null ? new Date(Number(c.vip_since)).toISOString() : null,
          lifetimeSpend: s?.spend ?? null,
          currency: s?.currency ?? null,
          orderCount: s?.count ?? 0,
        };
      }
      if (batch.length < batchSize) break;
      const last = batch[batch.length - 1];
      if (last === undefined) break;
      after = { createdAt: Number(last.created_at), id: last.id };
    }
  }
}

/** An entry as a CSV record's cells, in CUSTOMER_LIST_COLUMNS order. */
export function entryCells(e: CustomerListEntry) {
  return [
    e.email,
    e.name,
    e.score,
    e.tier,
    e.vip,
    e.vipSince,
    e.lifetimeSpend,
    e.currency,
    e.orderCount,
  ] as const;
}
