/**
 * Everything Velvet stores about one customer, as one JSON document (the answer to "show me
 * what you hold about me"): the customer, orders, the enrichment with every signal and the
 * merged profile, each provider's raw answer as received, the alerts sent about them with every
 * delivery attempt, and the usage charge their enrichment made.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { withAttempts } from "../alerts/with-attempts.js";
import { customerDetailsView, orderView } from "../customers/customer-views.js";

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Raw answers are JSON text as received; a body that is not JSON is given as a string. */
function parseStored(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function buildCustomerExport(db: Kysely<Database>, customerId: string, now: number) {
  const c = await db
    .selectFrom("customers")
    .selectAll()
    .where("id", "=", customerId)
    .executeTakeFirstOrThrow();
  const [orders, enrichment, answers, alerts, charges] = await Promise.all([
    db
      .selectFrom("orders")
      .selectAll()
      .where("customer_id", "=", customerId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("enrichments")
      .selectAll()
      .where("customer_id", "=", customerId)
      .executeTakeFirst(),
    db
      .selectFrom("provider_results")
      .selectAll()
      .where("customer_id", "=", customerId)
      .orderBy("provider")
      .execute(),
    db
      .selectFrom("alerts")
      .selectAll()
      .where("customer_id", "=", customerId)
      .orderBy("created_at")
      .execute(),
    db.selectFrom("usage_charges").selectAll().where("customer_id", "=", customerId).execute(),
  ]);
  const withLog = await withAttempts(db, alerts);
  return {
    exportedAt: iso(now),
    customer: {
      ...customerDetailsView(c),
      enrichmentStatus: c.enrichment_status,
      createdAt: iso(c.created_at),
      updatedAt: iso(c.updated_at),
    },
    orders: orders.map(orderView),
    enrichment:
      enrichment === undefined
        ? null
        : {
            score: enrichment.score,
            vip: enrichment.vip === null ? null : enrichment.vip === 1,
            threshold: enrichment.threshold,
            signals: parseStored(enrichment.signals),
            profile: parseStored(enrichment.profile),
            attempts: enrichment.attempts,
            lastError: enrichment.last_error,
            startedAt: iso(enrichment.started_at),
            enrichedAt: iso(enrichment.enriched_at),
          },
    providerAnswers: answers.map((a) => ({
      provider: a.provider,
      outcome: a.outcome,
      httpStatus: a.http_status,
      fetchedAt: iso(a.fetched_at),
      raw: parseStored(a.raw),
      rawClearedAt: iso(a.raw_cleared_at),
      profile: parseStored(a.profile),
      error: a.error,
    })),
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
    charges: charges.map((ch) => ({
      unitPriceUsd: ch.unit_price_usd,
      month: new Date(ch.created_at).toISOString().slice(0, 7),
      createdAt: iso(ch.created_at),
    })),
  };
}

export type CustomerExport = Awaited<ReturnType<typeof buildCustomerExport>>;
