/**
 * Old deliveries leave: a processed event is kept (without its body) for EVENT_KEEP_MS, the
 * window in which a platform may deliver the same event again (Shopify retries for four hours),
 * so that a repeat is still recognised. Then, in one transaction, the orders those events took
 * are added to the connection's `orders_synced` and the events are deleted: the count people
 * see (store-sync/list-connections.ts adds the taken events still held) never jumps or doubles.
 * Run by the connection's webhook check, a few times an hour, so the connection's row is
 * written rarely, not once per delivery.
 */
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";

/** Two days: longer than any platform's retries of one delivery. */
export const EVENT_KEEP_MS = 2 * 24 * 60 * 60 * 1000;

export async function foldOldEvents(
  deps: Pick<StoreSyncDeps, "db" | "clock">,
  connectionId: string,
): Promise<number> {
  const before = deps.clock.now() - EVENT_KEEP_MS;
  return deps.db.kysely.transaction().execute(async (trx) => {
    const old = () =>
      trx
        .selectFrom("store_events")
        .where("connection_id", "=", connectionId)
        .where("received_at", "<", before)
        .where("processed_at", "is not", null);
    const taken = await old()
      .select((eb) => eb.fn.countAll().as("n"))
      .where("outcome", "=", "taken")
      .executeTakeFirst();
    const n = Number(taken?.n ?? 0);
    if (n > 0) {
      await trx
        .updateTable("store_connections")
        .set((eb) => ({ orders_synced: eb("orders_synced", "+", n) }))
        .where("id", "=", connectionId)
        .execute();
    }
    const deleted = await trx
      .deleteFrom("store_events")
      .where("connection_id", "=", connectionId)
      .where("received_at", "<", before)
      .where("processed_at", "is not", null)
      .executeTakeFirst();
    return Number(deleted.numDeletedRows ?? 0n);
  });
}
