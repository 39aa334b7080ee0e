/**
 * The alert's history: each delivery attempt becomes an `alert_attempts` row, and the alert row
 * is updated in the same transaction (status, attempt count, last error, delivery time), so the
 * list and the dashboard never show an attempt the alert does not count.
 */
import { type Kysely, sql } from "kysely";
import type { AlertAttemptOutcome, AlertStatus, Database } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";

export interface DeliveryAttemptRecord {
  at: number;
  outcome: AlertAttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** Where it went this time (masked webhook or recipients), when the channel is configured. */
  target: string | null;
}

const STATUS_AFTER: Record<AlertAttemptOutcome, AlertStatus> = {
  delivered: "delivered",
  retry: "pending",
  failed: "failed",
};

export async function recordDeliveryAttempt(
  db: Kysely<Database>,
  alertId: string,
  attempt: DeliveryAttemptRecord,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("alert_attempts")
      .values({
        id: newId(attempt.at),
        alert_id: alertId,
        attempted_at: attempt.at,
        outcome: attempt.outcome,
        status_code: attempt.statusCode,
        error: attempt.error,
        duration_ms: Math.max(0, Math.round(attempt.durationMs)),
      })
      .execute();
    await trx
      .updateTable("alerts")
      .set({
        status: STATUS_AFTER[attempt.outcome],
        attempts: sql<number>`attempts + 1`,
        last_error: attempt.error,
        ...(attempt.outcome === "delivered" ? { delivered_at: attempt.at } : {}),
        ...(attempt.target === null ? {} : { target: attempt.target }),
      })
      .where("id", "=", alertId)
      .where("status", "!=", "delivered")
      .execute();
  });
}

/** When the job gives up: the alert is failed (unless an earlier run delivered it). Idempotent. */
export async function markAlertFailed(
  db: Kysely<Database>,
  alertId: string,
  error: string,
): Promise<void> {
  await db
    .updateTable("alerts")
    .set({ status: "failed", last_error: error })
    .where("id", "=", alertId)
    .where("status", "!=", "delivered")
    .execute();
}
