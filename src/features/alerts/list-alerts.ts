/**
 * An account's alerts, newest first, each with every delivery attempt (oldest first): what
 * `velvet alerts list` prints and the dashboard's alert log shows. Targets are stored masked,
 * so nothing here can leak a webhook URL.
 */
import type { Kysely } from "kysely";
import type { AlertAttemptOutcome, AlertChannel, AlertStatus, Database } from "../../db/schema.js";

export interface AlertAttemptView {
  at: string;
  outcome: AlertAttemptOutcome;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface AlertView {
  alertId: string;
  customerId: string;
  customerEmail: string;
  channel: AlertChannel;
  status: AlertStatus;
  target: string;
  score: number;
  threshold: number;
  createdAt: string;
  deliveredAt: string | null;
  lastError: string | null;
  attempts: AlertAttemptView[];
}

export interface ListAlertsOptions {
  limit?: number;
  customerId?: string;
}

export const DEFAULT_ALERT_LIMIT = 100;

const iso = (ms: number) => new Date(ms).toISOString();

export async function listAlerts(
  db: Kysely<Database>,
  accountId: string,
  options: ListAlertsOptions = {},
): Promise<AlertView[]> {
  let query = db
    .selectFrom("alerts")
    .innerJoin("customers", "customers.id", "alerts.customer_id")
    .select([
      "alerts.id",
      "alerts.customer_id",
      "customers.email",
      "alerts.channel",
      "alerts.status",
      "alerts.target",
      "alerts.score",
      "alerts.threshold",
      "alerts.created_at",
      "alerts.delivered_at",
      "alerts.last_error",
    ])
    .where("alerts.account_id", "=", accountId);
  if (options.customerId !== undefined)
    query = query.where("alerts.customer_id", "=", options.customerId);
  const rows = await query
    .orderBy("alerts.created_at", "desc")
    .orderBy("alerts.id", "desc")
    .limit(options.limit ?? DEFAULT_ALERT_LIMIT)
    .execute();
  if (rows.length === 0) return [];

  const attempts = await db
    .selectFrom("alert_attempts")
    .selectAll()
    .where(
      "alert_id",
      "in",
      rows.map((r) => r.id),
    )
    .orderBy("attempted_at")
    .orderBy("id")
    .execute();
  const byAlert = new Map<string, AlertAttemptView[]>();
  for (const a of attempts) {
    const list = byAlert.get(a.alert_id) ?? [];
    list.push({
      at: iso(a.attempted_at),
      outcome: a.outcome,
      statusCode: a.status_code,
      error: a.error,
      durationMs: a.duration_ms,
    });
    byAlert.set(a.alert_id, list);
  }
  return rows.map((r) => ({
    alertId: r.id,
    customerId: r.customer_id,
    customerEmail: r.email,
    channel: r.channel,
    status: r.status,
    target: r.target,
    score: r.score,
    threshold: r.threshold,
    createdAt: iso(r.created_at),
    deliveredAt: r.delivered_at === null ? null : iso(r.delivered_at),
    lastError: r.last_error,
    attempts: byAlert.get(r.id) ?? [],
  }));
}
