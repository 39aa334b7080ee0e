/**
 * Storing one page of pulled orders: the page's orders written (write-pulled-orders.ts: the
 * order-intake use case with de-duplication, one charge per new customer and enrichment, and
 * each order's platform status) and the connection's cursor moved past the page, in ONE
 * transaction. A crash anywhere in the page leaves the previous cursor and none of the page's
 * orders, so the next run reads the page again: no gap, no duplicate. The cursor update names
 * the cursor the page was read from, so a run whose lease expired (another worker took over)
 * cannot store the same page twice.
 *
 * An order the API would refuse (no e-mail, a one-word name), whose id already belongs to
 * another customer (its e-mail was changed in the store), that belonged to a forgotten customer
 * (orders/forgotten-orders.ts), that the client marked as not real (a test order, an unpaid
 * one), or that was cancelled, refunded or voided before Velvet took it, is skipped and counted
 * under its reason; the page goes on. A refused order costs one more try of the page without
 * it. An order read again in the next page's or pass's overlap (same id, same update time) is
 * not counted twice (the cursor's `skipped`).
 *
 * A closed account takes nothing: the page's transaction first reads whether the account is
 * open and writes nothing when it is not, so a run that fetched a page before the account was
 * closed stores none of it. On SQLite the transactions run one after the other, so that read is
 * exact; on PostgreSQL a close that commits meanwhile has deleted the connection's row
 * (privacy/close-account.ts), which the cursor update below then does not find.
 */
import type { StoreConnectionsTable, StoreWebhooksState } from "../../db/schema.js";
import type { OrdersPage, PulledOrder, SyncCursor } from "./store-platform.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";
import {
  type AfterOrderHook,
  OrderRefused,
  type PulledOrderSkip,
  writePulledOrders,
} from "./write-pulled-orders.js";

export type StoredConnection = Pick<
  StoreConnectionsTable,
  "id" | "account_id" | "store_id" | "cursor" | "live_after"
> & { skip_reasons: string; webhooks?: StoreWebhooksState };

/**
 * A live order older than this that a pass takes for the first time while the connection's
 * webhooks are `active` is one a delivery should have brought: the webhooks are then marked
 * `failing` (features/store-webhooks), and polling returns to its short interval until a
 * verified delivery arrives. Younger ones may simply be on their way.
 */
export const MISSED_DELIVERY_MS = 2 * 60 * 1000;

export interface PageStored {
  /**
   * false: nothing was written, because the cursor had moved meanwhile (another run stored this
   * page) or the account is closed.
   */
  stored: boolean;
  newOrders: number;
  skipped: number;
}

export type { AfterOrderHook };

class CursorMoved extends Error {}
class AccountClosed extends Error {}

export async function storePage(
  deps: StoreSyncDeps,
  connection: StoredConnection,
  page: OrdersPage,
  afterOrder?: AfterOrderHook,
): Promise<PageStored> {
  const refused = new Map<number, string>();
  // Each refused order costs one more try of the page without it; a page has at most 100.
  for (;;) {
    try {
      const result = await writePage(deps, connection, page, refused, afterOrder);
      if (result.outcomes.some((o) => o.enrichmentStatus !== "existing")) deps.jobs.notify();
      return { stored: true, newOrders: result.newOrders, skipped: result.skipped };
    } catch (error) {
      if (error instanceof CursorMoved || error instanceof AccountClosed)
        return { stored: false, newOrders: 0, skipped: 0 };
      if (!(error instanceof OrderRefused)) throw error;
      deps.log.info(
        { connectionId: connection.id, reason: error.reason },
        "store sync: an order was skipped",
      );
      refused.set(error.index, error.reason);
    }
  }
}

async function writePage(
  deps: StoreSyncDeps,
  connection: StoredConnection,
  page: OrdersPage,
  refused: Map<number, string>,
  afterOrder: AfterOrderHook | undefined,
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom("accounts")
      .select("closed_at")
      .where("id", "=", connection.account_id)
      .executeTakeFirst();
    if (account === undefined || account.closed_at !== null) throw new AccountClosed();
    const { outcomes, skips, created } = await writePulledOrders(
      trx,
      deps,
      connection,
      page.orders,
      refused,
      afterOrder,
    );
    const counted = countSkips(connection, page, skips);
    const newOrders = outcomes.filter((o) => o.newOrder).length;
    const now = deps.clock.now();
    const moved = await trx
      .updateTable("store_connections")
      .set((eb) => ({
        cursor: JSON.stringify(counted.next),
        orders_synced: eb("orders_synced", "+", newOrders),
        orders_skipped: eb("orders_skipped", "+", counted.skipped),
        skip_reasons: JSON.stringify(counted.reasons),
        last_sync_at: now,
        failures: 0,
        last_error: null,
        updated_at: now,
      }))
      .where("id", "=", connection.id)
      .where("cursor", "=", connection.cursor)
      .executeTakeFirst();
    if ((moved.numUpdatedRows ?? 0n) === 0n) throw new CursorMoved();
    if (connection.webhooks === "active") {
      const missed = created.filter((index) => {
        const order = page.orders[index];
        return (
          order?.kind === "order" &&
          order.createdAt >= connection.live_after &&
          order.createdAt < now - MISSED_DELIVERY_MS
        );
      }).length;
      if (missed > 0) {
        await trx
          .updateTable("store_connections")
          .set({
            webhooks: "failing",
            webhook_note: `a reconciliation pass took ${missed === 1 ? "an order" : `${missed} orders`} no webhook had delivered: polling every ${Math.round(deps.config.storeSync.intervalMs / 1000)} s until a delivery arrives`,
          })
          .where("id", "=", connection.id)
          .where("webhooks", "=", "active")
          .execute();
      }
    }
    return { outcomes, newOrders, skipped: counted.skipped };
  });
}

/** The page's skips not counted before, the reasons' new totals, and the cursor that remembers them. */
function countSkips(connection: StoredConnection, page: OrdersPage, skips: PulledOrderSkip[]) {
  const previous = JSON.parse(connection.cursor) as SyncCursor;
  const seen = new Set(previous.skipped ?? []);
  const reasons = parseReasons(connection.skip_reasons);
  let skipped = 0;
  for (const { index, reason } of skips) {
    const order = page.orders[index] as PulledOrder;
    const key = `${order.updatedAt}:${order.externalId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    skipped += 1;
    reasons[reason] = (reasons[reason] ?? 0) + 1;
  }
  // What can be read again: the orders of the latest second seen (a pass or page starts a
  // second before it); older skips are never met again.
  const latest = page.next.maxSeen ?? page.next.since;
  const from = page.next.maxSeen === null ? Date.parse(latest) : Date.parse(latest) - 1000;
  const keep = [...seen].filter((k) => Number(k.slice(0, k.indexOf(":"))) >= from);
  const next: SyncCursor = { ...page.next, ...(keep.length > 0 ? { skipped: keep } : {}) };
  return { skipped, reasons, next };
}

export function parseReasons(text: string): Record<string, number> {
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === "object" && value !== null ? (value as Record<string, number>) : {};
  } catch {
    return {};
  }
}
