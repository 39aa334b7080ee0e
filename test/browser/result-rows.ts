/**
 * Enrichment and alert rows written straight into the tables, shaped as the enrichment worker
 * and the alert sender store them. They put a store in a given state for page tests (and, in
 * bulk, for the screenshot test and the dashboard benchmark through seed-store.ts); they run
 * nothing. The pipeline itself is exercised for real by dashboard-flow.test.ts.
 */
import type { Insertable, Kysely } from "kysely";
import type {
  AlertAttemptOutcome,
  AlertAttemptsTable,
  AlertChannel,
  AlertStatus,
  AlertsTable,
  Database,
  EnrichmentsTable,
  ProviderOutcome,
  ProviderResultsTable,
} from "../../src/db/schema.js";
import { isVip } from "../../src/features/enrichment/score/compute-score.js";
import type { ScoreSignal } from "../../src/features/enrichment/score/score-signal.js";
import { MAX_SCORE } from "../../src/features/enrichment/score/weights.js";
import { newId } from "../../src/lib/ids.js";

/** An explanation worth 82 points: a VIP against the default threshold of 70. */
export const FIXTURE_VIP_SIGNALS: ScoreSignal[] = [
  { source: "profile", signal: "seniority", value: "C-level", points: 35 },
  { source: "profile", signal: "net_worth_usd", value: 5_000_000, points: 25 },
  { source: "offline", signal: "order_value", value: "1250.00 USD", points: 22 },
];

export interface EnrichedFixture {
  signals: ScoreSignal[];
  threshold?: number;
  profile?: object;
  /** When it was enriched (default: now). */
  at?: number;
  /** When enrichment started (default: `at`). */
  startedAt?: number;
}

/** A completed enrichment's row; the score is the signals' sum capped at 100, as the score's. */
export function enrichedRow(
  customerId: string,
  f: EnrichedFixture,
): { row: Insertable<EnrichmentsTable>; score: number; vip: boolean } {
  const at = f.at ?? Date.now();
  const threshold = f.threshold ?? 70;
  const score = Math.min(
    MAX_SCORE,
    f.signals.reduce((sum, s) => sum + s.points, 0),
  );
  const vip = isVip(score, threshold);
  const row = {
    customer_id: customerId,
    score,
    vip: vip ? 1 : 0,
    threshold,
    signals: JSON.stringify(f.signals),
    profile: JSON.stringify(f.profile ?? {}),
    attempts: 1,
    last_error: null,
    started_at: f.startedAt ?? at,
    enriched_at: at,
    updated_at: at,
  };
  return { row, score, vip };
}

/** Stores a completed enrichment for the customer and marks them enriched. */
export async function insertEnrichedRow(
  db: Kysely<Database>,
  customerId: string,
  f: EnrichedFixture,
): Promise<{ score: number; vip: boolean }> {
  const { row, score, vip } = enrichedRow(customerId, f);
  const { customer_id: _, ...values } = row;
  await db
    .insertInto("enrichments")
    .values(row)
    .onConflict((oc) => oc.column("customer_id").doUpdateSet(values))
    .execute();
  await db
    .updateTable("customers")
    .set({ enrichment_status: "enriched", updated_at: row.updated_at })
    .where("id", "=", customerId)
    .execute();
  return { score, vip };
}

const PROVIDERS = ["enrichlayer", "fullcontact", "gravatar", "pdl"] as const;
const HTTP_STATUS: Record<ProviderOutcome, number> = {
  matched: 200,
  not_found: 404,
  transient: 503,
  permanent: 401,
};

/** What the four providers answered, one row each, all with the same outcome. */
export function providerResultRows(
  customerId: string,
  outcome: ProviderOutcome,
  at: number,
): Insertable<ProviderResultsTable>[] {
  return PROVIDERS.map((provider) => ({
    id: newId(at),
    customer_id: customerId,
    provider,
    outcome,
    http_status: HTTP_STATUS[outcome],
    raw: null,
    profile: null,
    error:
      outcome === "transient" || outcome === "permanent" ? `HTTP ${HTTP_STATUS[outcome]}` : null,
    fetched_at: at,
  }));
}

export interface AttemptFixture {
  outcome: AlertAttemptOutcome;
  statusCode: number | null;
  error: string | null;
  /** Milliseconds after the alert was created (default: 700 after the previous attempt). */
  afterMs?: number;
  durationMs?: number;
}

export interface AlertFixture {
  accountId: string;
  customerId: string;
  channel: AlertChannel;
  status: AlertStatus;
  target: string;
  score: number;
  threshold?: number;
  attempts: AttemptFixture[];
  /** When it was created (default: now). */
  at?: number;
}

/** An alert's row and its attempts' rows; a delivered alert was delivered at its last attempt. */
export function alertRows(a: AlertFixture): {
  alert: Insertable<AlertsTable>;
  attempts: Insertable<AlertAttemptsTable>[];
} {
  const at = a.at ?? Date.now();
  const id = newId(at);
  let offset = 0;
  const attempts = a.attempts.map((t) => {
    offset = t.afterMs ?? offset + 700;
    return {
      id: newId(at + offset),
      alert_id: id,
      attempted_at: at + offset,
      outcome: t.outcome,
      status_code: t.statusCode,
      error: t.error,
      duration_ms: t.durationMs ?? 120,
    };
  });
  const last = attempts[attempts.length - 1];
  const delivered = a.status === "delivered";
  return {
    alert: {
      id,
      account_id: a.accountId,
      customer_id: a.customerId,
      channel: a.channel,
      status: a.status,
      target: a.target,
      score: a.score,
      threshold: a.threshold ?? 70,
      message_id: `<${id}@velvet.test>`,
      attempts: attempts.length,
      last_error: delivered ? null : (last?.error ?? null),
      created_at: at,
      delivered_at: delivered ? (last?.attempted_at ?? at) : null,
    },
    attempts,
  };
}

/** Stores an alert with its delivery attempts; returns the alert's id. */
export async function insertAlertRows(db: Kysely<Database>, a: AlertFixture): Promise<string> {
  const { alert, attempts } = alertRows(a);
  await db.insertInto("alerts").values(alert).execute();
  if (attempts.length > 0) await db.insertInto("alert_attempts").values(attempts).execute();
  return alert.id;
}
