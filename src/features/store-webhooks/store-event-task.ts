/**
 * The `store-event` job: one stored delivery (receive-delivery.ts) becomes an order through the
 * same write path as a polled page (store-sync/write-pulled-orders.ts): de-duplicated by the
 * store's order id, skipped when it is a test, unpaid, cancelled or a forgotten customer's,
 * one charge per new customer, enriched, scored and alerted as any order, live or history by
 * the connection's `live_after`. The event is marked processed and its raw body dropped in the
 * same transaction, so a crash either leaves the event to run again or has taken it fully.
 *
 * An order the intake refuses (no e-mail, a one-word name) is recorded as refused; the event is
 * done. The job never writes the connection's row: under a burst of deliveries every event of a
 * store would otherwise queue behind the one before it for that row's lock (on PostgreSQL,
 * holding pool connections the inbound route then waits for). The orders an event took are
 * counted from the events themselves and folded into the connection's count when old events
 * are deleted (fold-events.ts).
 */
import type { Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { TaskDefinition } from "../../jobs/task.js";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";
import { OrderRefused, writePulledOrders } from "../store-sync/write-pulled-orders.js";
import { PLATFORM_WEBHOOKS, type WebhookPlatform } from "./webhook-platforms.js";

export const STORE_EVENT_TASK = "store-event";
export const STORE_EVENT_MAX_ATTEMPTS = 20;
const Payload = z.object({ eventId: z.string().min(1) });
type Payload = z.infer<typeof Payload>;

export async function enqueueStoreEvent(
  trx: Transaction<Database>,
  eventId: string,
  now: number,
): Promise<void> {
  await enqueueJob(
    trx,
    {
      task: STORE_EVENT_TASK,
      payload: { eventId },
      jobKey: `${STORE_EVENT_TASK}:${eventId}`,
      maxAttempts: STORE_EVENT_MAX_ATTEMPTS,
    },
    now,
  );
}

export function createStoreEventTask(): TaskDefinition<Payload, StoreSyncDeps> {
  return {
    task: STORE_EVENT_TASK,
    payload: Payload,
    async handle(deps, payload) {
      await takeStoreEvent(deps, payload.eventId);
      return { kind: "done" };
    },
  };
}

export type EventOutcome = "taken" | "existing" | `skipped: ${string}` | `ignored: ${string}`;

/** Takes the event's order; answers what became of it (null: the event or connection is gone). */
export async function takeStoreEvent(
  deps: StoreSyncDeps,
  eventId: string,
): Promise<EventOutcome | null> {
  const event = await deps.db.kysely
    .selectFrom("store_events")
    .innerJoin("store_connections", "store_connections.id", "store_events.connection_id")
    .select([
      "store_events.id",
      "store_events.body",
      "store_events.processed_at",
      "store_connections.id as connection_id",
      "store_connections.platform",
      "store_connections.account_id",
      "store_connections.store_id",
      "store_connections.live_after",
    ])
    .where("store_events.id", "=", eventId)
    .executeTakeFirst();
  if (event === undefined || event.processed_at !== null || event.body === null) return null;
  const rules = PLATFORM_WEBHOOKS[event.platform as WebhookPlatform];
  let body: unknown;
  try {
    body = JSON.parse(event.body);
  } catch {
    body = undefined;
  }
  const order = body === undefined ? null : rules.mapOrder(body);
  const connection = {
    id: event.connection_id,
    account_id: event.account_id,
    store_id: event.store_id,
    live_after: event.live_after,
  };
  const refused = new Map<number, string>();
  for (;;) {
    try {
      const outcome = await deps.db.kysely.transaction().execute(async (trx) => {
        let said: EventOutcome;
        if (order === null) said = "ignored: not an order";
        else {
          const account = await trx
            .selectFrom("accounts")
            .select("closed_at")
            .where("id", "=", connection.account_id)
            .executeTakeFirst();
          if (account === undefined || account.closed_at !== null) said = "ignored: account closed";
          else {
            const written = await writePulledOrders(trx, deps, connection, [order], refused);
            const skip = written.skips[0];
            const taken = written.outcomes[0];
            said =
              skip !== undefined
                ? `skipped: ${skip.reason}`
                : taken?.newOrder
                  ? "taken"
                  : "existing";
          }
        }
        const now = deps.clock.now();
        await trx
          .updateTable("store_events")
          .set({ processed_at: now, body: null, outcome: said })
          .where("id", "=", eventId)
          .execute();
        return said;
      });
      if (order !== null) deps.jobs.notify();
      return outcome;
    } catch (error) {
      if (!(error instanceof OrderRefused) || refused.has(error.index)) throw error;
      deps.log.info(
        { connectionId: connection.id, reason: error.reason },
        "store webhook: an order was refused",
      );
      refused.set(error.index, error.reason);
    }
  }
}
