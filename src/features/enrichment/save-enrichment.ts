/**
 * Writes of the enrichment's lifecycle, and nothing else: an unfinished attempt, a result, a
 * failure. The result is written in the transaction enrich-customer.ts opens, the one that also
 * hands a VIP on to the alerts: no VIP can be stored without its alerts, nor alerted twice.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import { preparedQuery } from "../../db/prepared-query.js";
import type { Database, EnrichmentsTable } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import type { Reservation } from "../billing/monthly-budget.js";
import { type BilledLookups, recordProviderSpend } from "../billing/provider-spend.js";
import { saveProviderResults } from "./provider-results.js";
import type { ProviderResult } from "./providers/provider.js";
import type { ScoredCustomer } from "./score-customer.js";

/** Which attempt this was and when it started: written when the attempt ends, in its transaction. */
export interface AttemptInfo {
  attempt: number;
  startedAt: number;
  /** The request that enqueued the enrichment: its alerts' jobs carry it on. */
  requestId?: string | null;
}

/**
 * An attempt that must be tried again: the answers that came in, and the attempt itself. (Not
 * written at the attempt's start: that would be one more commit per enrichment on the loop that
 * serves orders; the job row already records a running attempt.)
 */
export async function saveUnfinishedAttempt(
  deps: Pick<Deps, "db" | "clock">,
  customerId: string,
  info: AttemptInfo,
  answers: ProviderResult[],
  spend: { accountId: string; billed: BilledLookups[]; reservation: Reservation | null },
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await saveProviderResults(trx, customerId, answers, now);
    await recordProviderSpend(trx, spend.accountId, spend.billed, now, spend.reservation);
    await upsertAttempt.execute(trx, {
      customer_id: customerId,
      attempts: info.attempt,
      started_at: info.startedAt,
      updated_at: now,
    });
  });
}

// Prepared once (db/prepared-query.ts): they run for every enrichment.
interface AttemptValues {
  customer_id: string;
  attempts: number;
  started_at: number;
  updated_at: number;
}
type ResultValues = AttemptValues &
  Pick<EnrichmentsTable, "score" | "vip" | "threshold" | "last_error" | "enriched_at"> & {
    signals: string;
    profile: string;
    paid_lookups_deferred: number;
    vip_since: number | null;
  };

const ATTEMPT = ["customer_id", "attempts", "started_at", "updated_at"] as const;
const RESULT = [
  ...ATTEMPT,
  "score",
  "vip",
  "threshold",
  "signals",
  "profile",
  "last_error",
  "enriched_at",
  "paid_lookups_deferred",
  "vip_since",
] as const;

/** Inserts the customer's enrichment row or updates every given column of it. */
function upsertEnrichment(db: Kysely<Database> | Transaction<Database>, v: AttemptValues) {
  const { customer_id: _, ...update } = v;
  return db
    .insertInto("enrichments")
    .values(v)
    .onConflict((oc) => oc.column("customer_id").doUpdateSet(update));
}

const upsertAttempt = preparedQuery(ATTEMPT, upsertEnrichment);
/** A VIP keeps the moment they became one (an earlier enrichment, a re-judge); others have none. */
const upsertResult = preparedQuery(RESULT, (db, v: ResultValues) => {
  const { customer_id: _, vip_since: __, ...update } = v;
  return db
    .insertInto("enrichments")
    .values(v)
    .onConflict((oc) =>
      oc.column("customer_id").doUpdateSet({
        ...update,
        vip_since: sql<
          number | null
        >`case when excluded.vip = 1 then coalesce(enrichments.vip_since, excluded.vip_since) else null end`,
      }),
    );
});

const markEnriched = preparedQuery(["id", "now"], (db, v: { id: string; now: number }) =>
  db
    .updateTable("customers")
    .set({ enrichment_status: "enriched", updated_at: v.now })
    .where("id", "=", v.id),
);

/** A finished enrichment as stored: the score, the decision taken on it, and why. */
export interface EnrichmentResult {
  scored: ScoredCustomer;
  vip: boolean;
  /** The account's threshold the decision was taken against. */
  threshold: number;
  /** The permanent provider failures the result was reached in spite of, if any. */
  providerErrors: string | null;
  /**
   * The monthly budget stopped the paid lookups, made when it allows: 0 no, 1 for a live
   * customer, 2 for one from an imported history (alerts nobody when looked up).
   */
  paidLookupsDeferred: 0 | 1 | 2;
}

/**
 * Stores a finished attempt inside the caller's transaction: the providers' answers, the result
 * and the customer's `enriched` status. It decides nothing; enrich-customer.ts does.
 */
export async function saveEnrichmentResult(
  trx: Transaction<Database>,
  customerId: string,
  info: AttemptInfo,
  answers: ProviderResult[],
  result: EnrichmentResult,
  now: number,
): Promise<void> {
  await saveProviderResults(trx, customerId, answers, now);
  await upsertResult.execute(trx, {
    customer_id: customerId,
    attempts: info.attempt,
    started_at: info.startedAt,
    updated_at: now,
    score: result.scored.score,
    vip: result.vip ? 1 : 0,
    threshold: result.threshold,
    signals: JSON.stringify(result.scored.signals),
    profile: JSON.stringify(result.scored.profile),
    last_error: result.providerErrors,
    enriched_at: now,
    paid_lookups_deferred: result.paidLookupsDeferred,
    vip_since: result.vip ? now : null,
  });
  await markEnriched.execute(trx, { id: customerId, now });
}

/** After the last attempt: `failed`, keeping what was gathered and why it stopped. */
export async function markEnrichmentFailed(
  deps: Pick<Deps, "db" | "clock">,
  customerId: string,
  error: string,
) {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await trx
      .updateTable("customers")
      .set({ enrichment_status: "failed", updated_at: now })
      .where("id", "=", customerId)
      .where("enrichment_status", "=", "pending")
      .execute();
    await trx
      .insertInto("enrichments")
      .values({ customer_id: customerId, last_error: error, updated_at: now })
      .onConflict((oc) =>
        oc.column("customer_id").doUpdateSet({ last_error: error, updated_at: now }),
      )
      .execute();
  });
}
