/**
 * Storing one verified delivery with its `store-event` job, atomically, in as few round trips
 * as the engine allows: the answer to the platform waits on this and nothing else.
 * - PostgreSQL: ONE statement (a data-modifying CTE: the delivery inserted unless its id was
 *   seen, the job inserted from what was inserted), so a delivery costs one round trip and one
 *   commit, on the intake's own connections (db/connect.ts `indexed`).
 * - SQLite: one transaction of two inserts (SQLite's CTEs cannot insert); its commits are
 *   grouped with the other writers' (db/sqlite-driver.ts).
 * Answers false when the delivery was seen before (nothing written).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connect.js";
import {
  enqueueStoreEvent,
  STORE_EVENT_MAX_ATTEMPTS,
  STORE_EVENT_TASK,
} from "./store-event-task.js";

export interface DeliveryRow {
  id: string;
  connectionId: string;
  deliveryId: string;
  topic: string;
  body: string;
  receivedAt: number;
}

export async function storeDelivery(db: Db, row: DeliveryRow): Promise<boolean> {
  if (db.dialect === "postgres") {
    const payload = JSON.stringify({ eventId: row.id });
    const jobKey = `${STORE_EVENT_TASK}:${row.id}`;
    const result = await sql<{ id: string }>`
      with delivery as (
        insert into store_events
          (id, connection_id, delivery_id, topic, body, received_at, processed_at, outcome)
        values (${row.id}, ${row.connectionId}, ${row.deliveryId}, ${row.topic}, ${row.body},
          ${row.receivedAt}, null, null)
        on conflict (connection_id, delivery_id) do nothing
        returning id
      )
      insert into jobs (id, task, payload, job_key, run_at, priority, attempts, max_attempts,
        last_error, locked_by, locked_until, request_id, created_at, updated_at)
      select ${row.id}, ${STORE_EVENT_TASK}, ${payload}, ${jobKey}, ${row.receivedAt}, 0, 0,
        ${STORE_EVENT_MAX_ATTEMPTS}, null, null, null, null, ${row.receivedAt}, ${row.receivedAt}
      from delivery
      returning id`.execute(db.indexed);
    return result.rows.length === 1;
  }
  return db.indexed.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("store_events")
      .values({
        id: row.id,
        connection_id: row.connectionId,
        delivery_id: row.deliveryId,
        topic: row.topic,
        body: row.body,
        received_at: row.receivedAt,
        processed_at: null,
        outcome: null,
      })
      .onConflict((oc) => oc.columns(["connection_id", "delivery_id"]).doNothing())
      .executeTakeFirst();
    if ((inserted.numInsertedOrUpdatedRows ?? 0n) === 0n) return false;
    await enqueueStoreEvent(trx, row.id, row.receivedAt);
    return true;
  });
}
