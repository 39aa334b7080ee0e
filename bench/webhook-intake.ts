/**
 * What the webhooks benchmark reads back from Velvet's database after a stream of deliveries
 * (either engine: either-database.ts): whether every delivered order was taken (stored, one
 * customer and one charge each, enriched), and how long after the last delivery that happened.
 * Times are the server's own epoch-ms columns: `store_events.processed_at` (the store-event job
 * took the order) and `enrichments.enriched_at` (the customer's result stored).
 */
import { openEitherDatabase } from "./either-database.js";

export interface IntakeCounts {
  events: number;
  /** Deliveries stored and not yet taken by their job. */
  eventsWaiting: number;
  /** Events whose order was taken as a new order. */
  eventsTaken: number;
  /** Outcomes other than `taken` (skipped, ignored, existing), with their counts. */
  otherOutcomes: Record<string, number>;
  customers: number;
  orders: number;
  usageCharges: number;
  enriched: number;
  failed: number;
  pending: number;
  /** Jobs still queued for the deliveries' work (the connection's own keyed jobs left out). */
  jobs: number;
  lastTakenAt: number | null;
  lastEnrichedAt: number | null;
}

const COUNTS = `select
  (select count(*) from store_events) as events,
  (select count(*) from store_events where processed_at is null) as events_waiting,
  (select count(*) from store_events where outcome = 'taken') as events_taken,
  (select count(*) from customers) as customers,
  (select count(*) from orders) as orders,
  (select count(*) from usage_charges) as usage_charges,
  (select count(*) from customers where enrichment_status = 'enriched') as enriched,
  (select count(*) from customers where enrichment_status = 'failed') as failed,
  (select count(*) from customers where enrichment_status = 'pending') as pending,
  (select count(*) from jobs where task not in ('store-sync', 'store-webhooks')
     and (job_key is null or job_key not like 'periodic:%')) as jobs,
  (select max(processed_at) from store_events) as last_taken_at,
  (select max(enriched_at) from enrichments) as last_enriched_at`;

export async function intakeCounts(database: string): Promise<IntakeCounts> {
  const db = await openEitherDatabase(database);
  try {
    const [row = {}] = await db.all(COUNTS);
    const outcomes = await db.all(
      "select outcome, count(*) as n from store_events where outcome is not null and outcome <> 'taken' group by outcome",
    );
    const n = (k: string) => Number(row[k] ?? 0);
    const at = (k: string) => (row[k] === null || row[k] === undefined ? null : Number(row[k]));
    return {
      events: n("events"),
      eventsWaiting: n("events_waiting"),
      eventsTaken: n("events_taken"),
      otherOutcomes: Object.fromEntries(outcomes.map((o) => [String(o.outcome), Number(o.n)])),
      customers: n("customers"),
      orders: n("orders"),
      usageCharges: n("usage_charges"),
      enriched: n("enriched"),
      failed: n("failed"),
      pending: n("pending"),
      jobs: n("jobs"),
      lastTakenAt: at("last_taken_at"),
      lastEnrichedAt: at("last_enriched_at"),
    };
  } finally {
    await db.close();
  }
}

export interface IntakeSettled {
  /** Every expected order taken (no delivery waiting); null if the wait ran out first. */
  takenAt: number | null;
  /** And every customer's enrichment finished, no work job left; null if the wait ran out. */
  settledAt: number | null;
  counts: IntakeCounts;
}

/** Polls until `expectedOrders` are taken and every enrichment finished, or `timeoutMs`. */
export async function waitUntilTaken(
  database: string,
  expectedOrders: number,
  timeoutMs: number,
): Promise<IntakeSettled> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await intakeCounts(database);
    const taken = counts.eventsWaiting === 0 && counts.orders >= expectedOrders;
    const settled = taken && counts.pending === 0 && counts.jobs === 0;
    if (settled) {
      // The server's own times: when the last order was taken and the last result stored.
      const takenAt = counts.lastTakenAt ?? Date.now();
      return { takenAt, settledAt: Math.max(takenAt, counts.lastEnrichedAt ?? 0), counts };
    }
    if (Date.now() >= deadline) {
      return {
        takenAt: taken ? (counts.lastTakenAt ?? Date.now()) : null,
        settledAt: null,
        counts,
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

export interface WindowRates {
  /** Orders taken by the store-event job, a second, in the measured window. */
  takenPerSec: number;
  /** Enrichment results stored, a second, in the measured window. */
  enrichedPerSec: number;
}

export async function ratesBetween(
  database: string,
  from: number,
  to: number,
): Promise<WindowRates> {
  const db = await openEitherDatabase(database);
  try {
    const seconds = (to - from) / 1000;
    const [taken] = await db.all(
      "select count(*) as n from store_events where processed_at >= ? and processed_at < ?",
      [from, to],
    );
    const [enriched] = await db.all(
      "select count(*) as n from enrichments where enriched_at >= ? and enriched_at < ?",
      [from, to],
    );
    return {
      takenPerSec: Number(taken?.n ?? 0) / seconds,
      enrichedPerSec: Number(enriched?.n ?? 0) / seconds,
    };
  } finally {
    await db.close();
  }
}
