/** What the alerts keep about a person (db/personal-data.ts): alerts, their jobs and attempts. */
import { isoOrNull as iso, type PersonalDataHolder, rowsTouched } from "../../db/personal-data.js";
import { alertJobKey } from "./alert-job.js";
import { withAttempts } from "./with-attempts.js";

async function alertIds(db: Parameters<PersonalDataHolder["erase"]>[0], customerId: string) {
  const rows = await db
    .selectFrom("alerts")
    .select("id")
    .where("customer_id", "=", customerId)
    .execute();
  return rows.map((a) => a.id);
}

export const alertPersonalData: PersonalDataHolder = {
  jobKeys: async (trx, customerId) => (await alertIds(trx, customerId)).map(alertJobKey),
  async erase(trx, customerId) {
    const ids = await alertIds(trx, customerId);
    const attempts =
      ids.length === 0
        ? 0
        : rowsTouched(
            await trx.deleteFrom("alert_attempts").where("alert_id", "in", ids).executeTakeFirst(),
          );
    const alerts = await trx
      .deleteFrom("alerts")
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
    return { alerts: rowsTouched(alerts), deliveryAttempts: attempts };
  },
  async export(db, customerId) {
    const alerts = await db
      .selectFrom("alerts")
      .selectAll()
      .where("customer_id", "=", customerId)
      .orderBy("created_at")
      .execute();
    const withLog = await withAttempts(db, alerts);
    return {
      alerts: withLog.map((a) => ({
        alertId: a.id,
        channel: a.channel,
        status: a.status,
        target: a.target,
        score: a.score,
        threshold: a.threshold,
        createdAt: iso(a.created_at),
        deliveredAt: iso(a.delivered_at),
        lastError: a.last_error,
        deliveries: a.attemptLog.map((t) => ({
          attemptedAt: iso(t.attempted_at),
          outcome: t.outcome,
          statusCode: t.status_code,
          error: t.error,
          durationMs: t.duration_ms,
        })),
      })),
    };
  },
};
