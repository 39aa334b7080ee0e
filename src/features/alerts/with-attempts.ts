/**
 * Alerts with their delivery attempts (oldest first), as both the Alerts log and a customer's
 * page show them: one query for all the alerts on the page, not one per alert.
 */
import type { Kysely, Selectable } from "kysely";
import type { AlertAttemptsTable, AlertsTable, Database } from "../../db/schema.js";

export async function withAttempts<A extends Pick<Selectable<AlertsTable>, "id">>(
  db: Kysely<Database>,
  alerts: A[],
): Promise<Array<A & { attemptLog: Selectable<AlertAttemptsTable>[] }>> {
  const attempts =
    alerts.length === 0
      ? []
      : await db
          .selectFrom("alert_attempts")
          .selectAll()
          .where(
            "alert_id",
            "in",
            alerts.map((a) => a.id),
          )
          .orderBy("attempted_at")
          .execute();
  return alerts.map((a) => ({ ...a, attemptLog: attempts.filter((t) => t.alert_id === a.id) }));
}
