/**
 * The store comparison's yardstick: the totals of a store's latest STORE_WINDOW orders in one
 * currency (the customer's own order included), sorted.
 *
 * Reading the window afresh costs up to 1,000 rows, ≈ 1–2 ms of the event loop that also serves
 * orders, at every new customer. So each process keeps the window per store and currency and
 * brings it up to date by reading only the orders created since the newest one it holds (an
 * index walk on (store_id, created_at) that usually returns one or two rows), dropping the
 * oldest past STORE_WINDOW. An order that commits with a created_at older than one already seen
 * (another process's clock, a slow transaction) would be missed, so the window is read afresh
 * every REBUILD_MS. At most MAX_STORES windows are kept, the least recently used going first;
 * each is two arrays of up to 1,000 numbers.
 *
 * Only purchases are read (`counts = 1`, store-sync/order-status.ts). An order cancelled or
 * refunded after the window took it keeps its created_at, so the incremental read does not see
 * it go: its total stays in a process's window until the next full read, at most REBUILD_MS
 * later (an order taken back into counting likewise comes back at that read). A minute of one
 * extra total among up to a thousand moves a rank by a fraction of a point.
 */
import { type Kysely, sql } from "kysely";
import { preparedQuery } from "../../../db/prepared-query.js";
import type { Database } from "../../../db/schema.js";

export const STORE_WINDOW = 1000;
export const REBUILD_MS = 60_000;
const MAX_STORES = 500;

export interface StoreWindows {
  /** The window's totals, ascending. */
  read(
    db: Kysely<Database>,
    storeId: string,
    currency: string,
    now: number,
  ): Promise<readonly number[]>;
}

interface OrderRow {
  id: string;
  created_at: number;
  total: string | null;
}

export function createStoreWindows(): StoreWindows {
  const windows = new Map<string, Window>();
  /** Full reads under way: concurrent enrichments of one store share one. */
  const building = new Map<string, Promise<Window>>();

  const build = (
    db: Kysely<Database>,
    key: string,
    storeId: string,
    currency: string,
    now: number,
  ) => {
    let pending = building.get(key);
    if (pending === undefined) {
      pending = latestOrders(db, storeId, currency)
        .then((rows) => Window.from(rows, now))
        .finally(() => building.delete(key));
      building.set(key, pending);
    }
    return pending;
  };

  const remember = (key: string, window: Window): readonly number[] => {
    windows.delete(key); // re-inserted last: the most recently used
    windows.set(key, window);
    if (windows.size > MAX_STORES) {
      const leastRecent = windows.keys().next();
      if (leastRecent.done !== true) windows.delete(leastRecent.value);
    }
    return window.sorted;
  };

  return {
    async read(db, storeId, currency, now) {
      const key = `${storeId}\u0000${currency}`;
      let window = windows.get(key);
      if (window === undefined || now - window.builtAt >= REBUILD_MS) {
        const joined = building.has(key);
        window = await build(db, key, storeId, currency, now);
        // A read someone else started may predate this customer's own order: catch up below.
        if (!joined) return remember(key, window);
      }
      const newer = await ordersSince(db, storeId, currency, window.newestAt);
      // As many new orders as the window holds: a full read is as cheap and simpler.
      if (newer.length < STORE_WINDOW) window.add(newer);
      else window = await build(db, key, storeId, currency, now);
      return remember(key, window);
    },
  };
}

/** The latest STORE_WINDOW purchases with a total, newest first. */
function latestOrders(
  db: Kysely<Database>,
  storeId: string,
  currency: string,
): Promise<OrderRow[]> {
  return db
    .selectFrom("orders")
    .select(["id", "created_at", "total"])
    .where("store_id", "=", storeId)
    .where("currency", "=", currency)
    .where("total", "is not", null)
    .where("counts", "=", sql.lit(1))
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(STORE_WINDOW)
    .execute();
}

/** Purchases with a total created at or after `since`, oldest first. */
function ordersSince(
  db: Kysely<Database>,
  storeId: string,
  currency: string,
  since: number,
): Promise<OrderRow[]> {
  return findOrdersSince.execute(db, { store_id: storeId, currency, since });
}

/**
 * Prepared once (db/prepared-query.ts): it runs for every enrichment. The LIMIT is a literal,
 * as in order-history.ts: SQLite runs a bound `LIMIT ?` slower.
 */
const findOrdersSince = preparedQuery(
  ["store_id", "currency", "since"],
  (db, v: { store_id: string; currency: string; since: number }) =>
    db
      .selectFrom("orders")
      .select(["id", "created_at", "total"])
      .where("store_id", "=", v.store_id)
      .where("created_at", ">=", v.since)
      .where("currency", "=", v.currency)
      .where("total", "is not", null)
      .where("counts", "=", sql.lit(1))
      .orderBy("created_at")
      .orderBy("id")
      .limit(sql.lit(STORE_WINDOW)),
);

/** One store's window: totals in arrival order (to drop the oldest) and sorted (to rank). */
class Window {
  /** Totals are validated decimal text; as doubles they compare like SQL NUMERIC. */
  readonly sorted: number[] = [];
  readonly #byAge: number[] = [];
  /** The newest created_at held, and the ids of the orders created at that instant. */
  newestAt = Number.NEGATIVE_INFINITY;
  #idsAtNewest = new Set<string>();

  private constructor(readonly builtAt: number) {}

  static from(newestFirst: OrderRow[], now: number): Window {
    const window = new Window(now);
    window.add(newestFirst.reverse());
    return window;
  }

  /** Appends orders given oldest first, skipping those already held. */
  add(oldestFirst: OrderRow[]): void {
    for (const row of oldestFirst) {
      if (row.total === null) continue;
      if (row.created_at < this.newestAt) continue;
      if (row.created_at === this.newestAt) {
        if (this.#idsAtNewest.has(row.id)) continue;
      } else {
        this.newestAt = row.created_at;
        this.#idsAtNewest = new Set();
      }
      this.#idsAtNewest.add(row.id);
      const total = Number(row.total);
      this.#byAge.push(total);
      this.sorted.splice(
        firstIndex(this.sorted, (t) => t > total),
        0,
        total,
      );
      if (this.#byAge.length > STORE_WINDOW) {
        const oldest = this.#byAge.shift() as number;
        this.sorted.splice(
          firstIndex(this.sorted, (t) => t >= oldest),
          1,
        );
      }
    }
  }
}

/** How many of the ascending totals are below `value`, and how many equal it. */
export function countBelowAndEqual(
  sorted: readonly number[],
  value: number,
): { below: number; equal: number } {
  const below = firstIndex(sorted, (t) => t >= value);
  const notAbove = firstIndex(sorted, (t) => t > value);
  return { below, equal: notAbove - below };
}

/** The first index whose total passes `test` (which, once true, stays true): binary search. */
function firstIndex(sorted: readonly number[], test: (total: number) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(sorted[middle] as number)) high = middle;
    else low = middle + 1;
  }
  return low;
}
