/**
 * Writes of the enrichment's lifecycle. The providers' answers, the result, the customer's status
 * and (for a VIP) the alert jobs are one transaction: no VIP can be stored without its alerts,
 * nor alerted twice.
 */
import type { Kysely, Transaction } from "kysely";
import { preparedQuery } from "../../db/prepared-query.js";
import type { Database, EnrichmentsTable } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { enqueueVipAlerts } from "../alerts/enqueue-vip-alerts.js";
import { saveProviderResults } from "./provider-results.js";
import type { ProviderResult } from "./providers/provider.js";
import { isVip } from "./score/compute-score.js";
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
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await saveProviderResults(trx, customerId, answers, now);
    await upsertAttempt.run(trx, {
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
const upsertResult = preparedQuery(RESULT, (db, v: ResultValues) => upsertEnrichment(db, v));

const findOwner = preparedQuery(["customer_id"], (db, v: { customer_id: string }) =>
  db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .innerJoin("accounts", "accounts.id", "stores.account_id")
    .select(["accounts.id as account_id", "accounts.vip_threshold"])
    .where("customers.id", "=", v.customer_id),
);

const markEnriched = preparedQuery(["id", "now"], (db, v: { id: string; now: number }) =>
  db
    .updateTable("customers")
    .set({ enrichment_status: "enriched", updated_at: v.now })
    .where("id", "=", v.id),
);

/**
 * Scores the customer (`score` runs inside the transaction) and stores the result; answers
 * whether alerts were enqueued: the customer is a VIP and `alerts` is on (it is off for an
 * imported history, whose VIPs are scored and listed but not announced).
 */
export async function saveEnrichmentResult(
  deps: Pick<Deps, "db" | "clock" | "alerts">,
  customerId: string,
  info: AttemptInfo,
  score: (trx: Transaction<Database>) => Promise<ScoredCustomer>,
  answers: ProviderResult[],
  providerErrors: string | null,
  alerts = true,
): Promise<boolean> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const scored = await score(trx);
    await saveProviderResults(trx, customerId, answers, now);
    const owner = await findOwner.runTakeFirst(trx, { customer_id: customerId });
    if (owner === undefined) throw new Error(`customer ${customerId} does not exist`);
    // The threshold in force now decides; changing it later does not rewrite this decision.
    const vip = isVip(scored.score, owner.vip_threshold);
    await upsertResult.run(trx, {
      customer_id: customerId,
      attempts: info.attempt,
      started_at: info.startedAt,
      updated_at: now,
      score: scored.score,
      vip: vip ? 1 : 0,
      threshold: owner.vip_threshold,
      signals: JSON.stringify(scored.signals),
      profile: JSON.stringify(scored.profile),
      last_error: providerErrors,
      enriched_at: now,
    });
    await markEnriched.run(trx, { id: customerId, now });
    if (vip && alerts) {
      await enqueueVipAlerts(
        trx,
        {
          accountId: owner.account_id,
          customerId,
          score: scored.score,
          threshold: owner.vip_threshold,
        },
        now,
        { requestId: info.requestId ?? null },
      );
    }
    return vip && alerts;
  });
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
