/**
 * Writing orders read from a store (a sync page, a webhook delivery) inside the caller's
 * transaction: each order through the order-intake use case (`submitOrderInTransaction`:
 * de-duplication, one charge per new customer, enrichment) with the platform's status kept on
 * it. The caller owns the transaction and whatever else it commits with the orders (a sync
 * page's cursor, store-page.ts); nothing here reads or moves a cursor.
 *
 * Order by order:
 * - a skip the platform client decided (a test order, an unpaid one), an order refused on an
 *   earlier try (`refused`) and an order of a forgotten customer (orders/forgotten-orders.ts) are
 *   skipped under their reason;
 * - an order that is not a purchase (`counts: false`: cancelled, refunded, voided …) is never
 *   created: Velvet does not create, enrich or charge for a purchase that did not happen. When
 *   the store already holds it (taken earlier, before it was cancelled), its status changes;
 *   otherwise it is skipped as `cancelled`, `refunded` or `voided`;
 * - a purchase goes through the order intake, then its status is set.
 * A status is written only when the platform's update time is the same as or newer than the one
 * held (`status_at`), so an older update read late (an overlap, a webhook retried after a newer
 * one) never overwrites a newer status.
 *
 * A known customer is re-judged after the commit (enrichment/rejudge/): when a known order's
 * status changes (a late cancellation, a refund) and when a new order of theirs is taken, one
 * keyed job per customer however many of their orders the page holds. Their score is
 * recomputed from the whole history of purchases: a cancellation can make a VIP not one, which
 * destinations hear and people are not alerted about.
 *
 * An order the intake refuses (an AppError: no usable e-mail, an id that belongs to another
 * customer) throws OrderRefused: its writes are in the caller's transaction, which must roll
 * back and be tried again with that order's index in `refused`. After the commit the caller
 * wakes the worker (`jobs.notify()`) when any outcome's enrichmentStatus is not "existing", as
 * with submitOrderInTransaction.
 */
import type { Transaction } from "kysely";
import { preparedQuery } from "../../db/prepared-query.js";
import type { Database, StoreConnectionsTable } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { enqueueRejudge } from "../enrichment/rejudge/enqueue-rejudge.js";
import { findForgottenOrders, forgottenOrderKeys } from "../orders/forgotten-orders.js";
import { findOrder } from "../orders/order-queries.js";
import { submitOrderInTransaction } from "../orders/submit-order.js";
import type { SubmitOrderOutcome } from "../orders/submit-order-types.js";
import { notPurchasedReason } from "./order-status.js";
import type { PulledOrder, SkipReason } from "./store-platform.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";

export type PulledOrdersConnection = Pick<
  StoreConnectionsTable,
  "id" | "account_id" | "store_id" | "live_after"
>;

export interface PulledOrderSkip {
  /** The order's index in the list given. */
  index: number;
  reason: SkipReason;
}

export interface PulledOrdersWritten {
  /** One per order taken: created, repeated, or a known order whose status changed. */
  outcomes: SubmitOrderOutcome[];
  skips: PulledOrderSkip[];
  /** The indexes of the orders this call stored for the first time. */
  created: number[];
}

/** Test hook: called after each order is written, inside the caller's transaction. */
export type AfterOrderHook = (index: number) => void;

/** The intake refused the order at `index`: roll back and try again without it. */
export class OrderRefused extends Error {
  constructor(
    readonly index: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

type TakenOrder = Extract<PulledOrder, { kind: "order" }>;

export async function writePulledOrders(
  trx: Transaction<Database>,
  deps: Pick<StoreSyncDeps, "clock" | "config">,
  connection: PulledOrdersConnection,
  orders: PulledOrder[],
  refused: ReadonlyMap<number, string>,
  afterOrder?: AfterOrderHook,
): Promise<PulledOrdersWritten> {
  const outcomes: SubmitOrderOutcome[] = [];
  const skips: PulledOrderSkip[] = [];
  const created: number[] = [];
  const forgotten = await findForgottenOrders(
    trx,
    forgottenOrderKeys(deps.config.storeSync.tokenKey),
    connection.store_id,
    orders.flatMap((o) => (o.kind === "order" ? [o.externalId] : [])),
  );
  // Known customers whose orders changed: re-judged once each, live unless only history moved.
  const rejudge = new Map<string, boolean>();
  for (const [index, order] of orders.entries()) {
    if (order.kind === "skip") skips.push({ index, reason: order.reason });
    else if (refused.has(index)) skips.push({ index, reason: "refused" });
    else if (forgotten.has(order.externalId)) skips.push({ index, reason: "forgotten customer" });
    else if (!order.counts) {
      const known = await updateKnownOrder(trx, connection, order);
      if (known === null) skips.push({ index, reason: notPurchasedReason(order.status) });
      else {
        if (known.stoppedCounting) rejudge.set(known.customerId, true);
        const { stoppedCounting: _, ...outcome } = known;
        outcomes.push(outcome);
        afterOrder?.(index);
      }
    } else {
      const outcome = await submitOne(trx, deps, connection, order, index);
      // A known order read again counts again only if it had stopped counting (reinstated).
      const reinstated =
        !outcome.newOrder && outcome.orderId !== undefined
          ? (await countsOf(trx, outcome.orderId)) === 0
          : false;
      if (outcome.orderId !== undefined) await setStatus(trx, outcome.orderId, order);
      if (order.shopifyCustomerId) {
        await trx
          .updateTable("customers")
          .set({ shopify_customer_id: order.shopifyCustomerId })
          .where("id", "=", outcome.customerId)
          .execute();
      }
      outcomes.push(outcome);
      if (outcome.newOrder) created.push(index);
      const changed = outcome.newOrder || reinstated;
      if (changed && !outcome.newCustomer && outcome.enrichmentStatus === "existing") {
        const live = order.createdAt >= connection.live_after;
        rejudge.set(outcome.customerId, (rejudge.get(outcome.customerId) ?? false) || live);
      }
      afterOrder?.(index);
    }
  }
  const now = deps.clock.now();
  for (const [customerId, live] of rejudge) {
    await enqueueRejudge(trx, customerId, now, { historical: !live });
  }
  return { outcomes, skips, created };
}

/** A cancelled (refunded …) order the store holds: its status changes, nothing else. */
async function updateKnownOrder(
  trx: Transaction<Database>,
  connection: PulledOrdersConnection,
  order: TakenOrder,
): Promise<(SubmitOrderOutcome & { stoppedCounting: boolean }) | null> {
  const known = await findOrder.executeTakeFirst(trx, {
    store_id: connection.store_id,
    external_order_id: order.externalId,
  });
  if (known === undefined) return null;
  const counted = (await countsOf(trx, known.id)) === 1;
  await setStatus(trx, known.id, order);
  const stoppedCounting = counted && (await countsOf(trx, known.id)) === 0;
  return {
    customerId: known.customer_id,
    orderId: known.id,
    enrichmentStatus: "existing",
    newCustomer: false,
    newOrder: false,
    stoppedCounting,
  };
}

async function countsOf(trx: Transaction<Database>, orderId: string): Promise<number | undefined> {
  const row = await trx
    .selectFrom("orders")
    .select("counts")
    .where("id", "=", orderId)
    .executeTakeFirst();
  return row?.counts;
}

/** Newer wins: the status is written only over an older or same-second one (or none). */
async function setStatus(trx: Transaction<Database>, orderId: string, order: TakenOrder) {
  // An update time the platform did not give as a date cannot be ordered: it sets a status
  // only where none was set by a dated one (`status_at < null` is never true).
  const statusAt = Number.isFinite(order.updatedAt) ? order.updatedAt : null;
  await updateStatusIfNewer.execute(trx, {
    id: orderId,
    status: order.status,
    counts: order.counts ? 1 : 0,
    status_at: statusAt,
  });
}

const updateStatusIfNewer = preparedQuery(
  ["id", "status", "counts", "status_at"],
  (db, v: { id: string; status: string | null; counts: number; status_at: number | null }) =>
    db
      .updateTable("orders")
      .set({ status: v.status, counts: v.counts, status_at: v.status_at })
      .where("id", "=", v.id)
      .where((eb) =>
        // A null status_at given compares as unknown: it never replaces a dated status. The same
        // time wins too: platforms date in whole seconds, so two changes within one second
        // (placed, then refunded) are ordered by the order they are read in.
        eb.or([eb("status_at", "is", null), eb("status_at", "<=", v.status_at as number)]),
      ),
);

async function submitOne(
  trx: Transaction<Database>,
  deps: Pick<StoreSyncDeps, "clock" | "config">,
  connection: PulledOrdersConnection,
  order: TakenOrder,
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
