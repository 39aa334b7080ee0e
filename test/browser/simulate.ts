/**
 * Stand-ins for the enrichment worker and the alert sender in dashboard tests: they write the
 * rows those features write (enrichments + customers.enrichment_status, alerts +
 * alert_attempts), so the pages can be tested on their own. Tests that want the real pipeline
 * run the worker instead.
 */
import type { Kysely } from "kysely";
import type {
  AlertAttemptOutcome,
  AlertChannel,
  AlertStatus,
  Database,
} from "../../src/db/schema.js";
import { newId } from "../../src/lib/ids.js";

export interface SimulatedSignal {
  source: string;
  signal: string;
  value: string | number | boolean | null;
  points: number;
}

export const VIP_SIGNALS: SimulatedSignal[] = [
  { source: "pdl", signal: "seniority", value: "c_level", points: 35 },
  { source: "fullcontact", signal: "net_worth_usd", value: 5_000_000, points: 25 },
  { source: "offline", signal: "order_value", value: "1250.00 USD", points: 22 },
];

export async function simulateEnrichment(
  db: Kysely<Database>,
  customerId: string,
  result: { signals: SimulatedSignal[]; threshold?: number; profile?: object; at?: number },
): Promise<{ score: number; vip: boolean }> {
  const at = result.at ?? Date.now();
  const threshold = result.threshold ?? 70;
  const score = Math.min(
    100,
    result.signals.reduce((s, x) => s + x.points, 0),
  );
  const vip = score > threshold;
  const values = {
    score,
    vip: vip ? 1 : 0,
    threshold,
    signals: JSON.stringify(result.signals),
    profile: JSON.stringify(result.profile ?? {}),
    attempts: 1,
    last_error: null,
    started_at: at,
    enriched_at: at,
    updated_at: at,
  };
  await db
    .insertInto("enrichments")
    .values({ customer_id: customerId, ...values })
    .onConflict((oc) => oc.column("customer_id").doUpdateSet(values))
    .execute();
  await db
    .updateTable("customers")
    .set({ enrichment_status: "enriched", updated_at: at })
    .where("id", "=", customerId)
    .execute();
  return { score, vip };
}

export interface SimulatedAttempt {
  outcome: AlertAttemptOutcome;
  statusCode: number | null;
  error: string | null;
}

export async function simulateAlert(
  db: Kysely<Database>,
  a: {
    accountId: string;
    customerId: string;
    channel: AlertChannel;
    status: AlertStatus;
    target: string;
    score: number;
    threshold?: number;
    attempts: SimulatedAttempt[];
    at?: number;
  },
): Promise<string> {
  const at = a.at ?? Date.now();
  const id = newId(at);
  const last = a.attempts[a.attempts.length - 1];
  await db
    .insertInto("alerts")
    .values({
      id,
      account_id: a.accountId,
      customer_id: a.customerId,
      channel: a.channel,
      status: a.status,
      target: a.target,
      score: a.score,
      threshold: a.threshold ?? 70,
      message_id: `<${id}@velvet.test>`,
      attempts: a.attempts.length,
      last_error: a.status === "delivered" ? null : (last?.error ?? null),
      created_at: at,
      delivered_at: a.status === "delivered" ? at + 1500 : null,
    })
    .execute();
  let t = at;
  for (const attempt of a.attempts) {
    t += 700;
    await db
      .insertInto("alert_attempts")
      .values({
        id: newId(t),
        alert_id: id,
        attempted_at: t,
        outcome: attempt.outcome,
        status_code: attempt.statusCode,
        error: attempt.error,
        duration_ms: 120,
      })
      .execute();
  }
  return id;
}
