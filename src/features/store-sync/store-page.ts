/**
 * Storing one page of pulled orders: every order through the order-intake use case
 * (`submitOrderInTransaction`: de-duplication, one charge per new customer, enrichment) and the
 * connection's cursor moved past the page, in ONE transaction. A crash anywhere in the page
 * leaves the previous cursor and none of the page's orders, so the next run reads the page again:
 * no gap, no duplicate. The cursor update names the cursor the page was read from, so a run
 * whose lease expired (another worker took over) cannot store the same page twice.
 *
 * An order the API would refuse (no e-mail, a one-word name) or whose id already belongs to
 * another customer (its e-mail was changed in the store) is skipped and counted; the page goes on.
 */
import type { Transaction } from "kysely";
import type { Database, StoreConnectionsTable } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { submitOrderInTransaction } from "../orders/submit-order.js";
import type { SubmitOrderOutcome } from "../orders/submit-order-types.js";
import type { OrdersPage, PulledOrder } from "./store-platform.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";

export type StoredConnection = Pick<
  StoreConnectionsTable,
  "id" | "account_id" | "store_id" | "cursor" | "live_after"
>;

export interface PageStored {
  /** false: the cursor had moved meanwhile (another run stored this page); nothing was written. */
  stored: boolean;
  newOrders: number;
  skipped: number;
}

/** Test hook: called after each order of a page is written, inside the page's transaction. */
export type AfterOrderHook = (index: number) => void;

class OrderRefused extends Error {
  constructor(
    readonly index: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}
class CursorMoved extends Error {}

export async function storePage(
  deps: StoreSyncDeps,
  connection: StoredConnection,
  page: OrdersPage,
  afterOrder?: AfterOrderHook,
): Promise<PageStored> {
  const refused = new Set<number>();
  // Each refused order costs one more try of the page without it; a page has at most 100.
  for (;;) {
    try {
      const result = await writePage(deps, connection, page, refused, afterOrder);
      if (result.outcomes.some((o) => o.enrichmentStatus !== "existing")) deps.jobs.notify();
      return { stored: true, newOrders: result.newOrders, skipped: result.skipped };
    } catch (error) {
      if (error instanceof CursorMoved) return { stored: false, newOrders: 0, skipped: 0 };
      if (!(error instanceof OrderRefused)) throw error;
      deps.log.info(
        { connectionId: connection.id, reason: error.reason },
        "store sync: an order was skipped",
      );
      refused.add(error.index);
    }
  }
}

async function writePage(
  deps: StoreSyncDeps,
  connection: StoredConnection,
  page: OrdersPage,
  refused: Set<number>,
  afterOrder: AfterOrderHook | undefined,
) {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const outcomes: SubmitOrderOutcome[] = [];
    let skipped = 0;
    for (const [index, order] of page.orders.entries()) {
      if (order.kind === "skip" || refused.has(index)) {
        skipped += 1;
        continue;
      }
      outcomes.push(await submitOne(trx, deps, connection, order, index));
      afterOrder?.(index);
    }
    const newOrders = outcomes.filter((o) => o.newOrder).length;
    const now = deps.clock.now();
    const moved = await trx
      .updateTable("store_connections")
      .set((eb) => ({
        cursor: JSON.stringify(page.next),
        orders_synced: eb("orders_synced", "+", newOrders),
        orders_skipped: eb("orders_skipped", "+", skipped),
        last_sync_at: now,
        failures: 0,
        last_error: null,
        updated_at: now,
      }))
      .where("id", "=", connection.id)
      .where("cursor", "=", connection.cursor)
      .executeTakeFirst();
    if ((moved.numUpdatedRows ?? 0n) === 0n) throw new CursorMoved();
    return { outcomes, newOrders, skipped };
  });
}

async function submitOne(
  trx: Transaction<Database>,
  deps: StoreSyncDeps,
  connection: StoredConnection,
  order: Extract<PulledOrder, { kind: "order" }>,
  index: number,
): Promise<SubmitOrderOutcome> {
  // History (created before the connection): dated, no alert, enriched after live work.
  const live = order.createdAt >= connection.live_after;
  try {
    return await submitOrderInTransaction(
      trx,
      deps,
      { accountId: connection.account_id, storeId: connection.store_id },
      order.submission,
      { orderedAt: order.createdAt, alerts: live, priority: live ? "live" : "backfill" },
    );
  } catch (error) {
    if (error instanceof AppError)
      throw new OrderRefused(index, `order ${order.externalId}: ${error.message}`);
    throw error;
  }
}
