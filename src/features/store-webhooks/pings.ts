/**
 * WooCommerce's pings, remembered. WooCommerce pings a webhook's address when it creates it
 * (WC_Webhook::deliver_ping, before the REST API answers the creation), but creates the webhook
 * whatever the ping got (the REST controller does not look at the result). So the process that
 * subscribes asks the database whether the ping arrived (any Velvet process may have answered
 * it): a webhook whose ping never came means the store cannot reach PUBLIC_BASE_URL, said at
 * connect rather than found out when orders stop arriving.
 *
 * A ping is a `store_events` row `ping:<webhook id>`, born processed, deleted with the other
 * old events. Pings are unsigned, so at most MAX_PINGS an hour are kept per connection: an
 * address that leaked cannot be used to fill the table.
 */

import { newId } from "../../lib/ids.js";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";

export const MAX_PINGS = 50;
const HOUR_MS = 60 * 60 * 1000;

export async function recordPing(
  deps: Pick<StoreSyncDeps, "db" | "clock">,
  connectionId: string,
  webhookId: string,
): Promise<void> {
  const now = deps.clock.now();
  const held = await deps.db.indexed
    .selectFrom("store_events")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("connection_id", "=", connectionId)
    .where("received_at", ">", now - HOUR_MS)
    .where("topic", "=", "ping")
    .executeTakeFirst();
  if (Number(held?.n ?? 0) >= MAX_PINGS) return;
  await deps.db.indexed
    .insertInto("store_events")
    .values({
      id: newId(now),
      connection_id: connectionId,
      delivery_id: `ping:${webhookId}`,
      topic: "ping",
      body: null,
      received_at: now,
      processed_at: now,
      outcome: "ping",
    })
    .onConflict((oc) => oc.columns(["connection_id", "delivery_id"]).doNothing())
    .execute();
}

export async function pingSeen(
  deps: Pick<StoreSyncDeps, "db">,
  connectionId: string,
  webhookId: string,
): Promise<boolean> {
  const row = await deps.db.kysely
    .selectFrom("store_events")
    .select("id")
    .where("connection_id", "=", connectionId)
    .where("delivery_id", "=", `ping:${webhookId}`)
    .executeTakeFirst();
  return row !== undefined;
}
