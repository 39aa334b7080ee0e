/**
 * Re-judging a known customer: their score recomputed from the provider lines stored at their
 * enrichment (kept as they are: nobody is asked, nothing is charged) and fresh offline signals
 * read from their whole history of purchases (lifetime spend, order count, largest order,
 * latest order), then decided against the account's threshold in force now. One transaction:
 * the read, the write and the events.
 *
 * - A customer whose enrichment is not finished (queued, retrying, failed) is left alone: the
 *   enrichment scores the whole history when it runs.
 * - Nothing changed (same score, same lines): nothing is written.
 * - The score moved but the decision did not: the new score and lines are stored, nobody told.
 * - Over the line (promoted): `vip_since`, `vip_changed_at` and the reason are stored, and
 *   "customer enriched" then "VIP found" are raised: alerts (once per customer and channel,
 *   ever: a customer who goes back over the line on the same orders is not alerted again) and
 *   `customer.vip` to destinations.
 * - Under the line (demoted): the same columns, then "customer enriched" (vip false) and "VIP
 *   lost": destinations are told (`customer.not_vip`), people are not alerted.
 * Sample customers (features/demo) are re-judged and told to nobody, as at their enrichment.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../../db/schema.js";
import type { Deps } from "../../../deps.js";
import { raise } from "../../../jobs/event-handlers.js";
import type { CustomerEnriched, EnrichmentDeps, VipChange } from "../enrichment-deps.js";
import type { StoreWindows } from "../offline/store-order-window.js";
import { gatherOfflineSignals } from "../offline-signals.js";
import { isVip, type ScoreSignal, totalOf } from "../score/compute-score.js";
import { offlineSignals } from "../score/offline-score-signals.js";
import { readStoredSignals } from "../score/read-stored-signals.js";
import { vipChangeReason } from "./vip-change-reason.js";

export type RejudgeOutcome =
  | { kind: "skipped"; reason: "no customer" | "not enriched" | "account closed" }
  | { kind: "unchanged" }
  | { kind: "rescored"; score: number }
  | { kind: "promoted" | "demoted"; score: number; reason: string };

export interface RejudgeOptions {
  /** From an import or a store backfill: machines hear of a change, people are not alerted. */
  historical: boolean;
  requestId: string | null;
}

export async function rejudgeCustomer(
  deps: Pick<Deps, "db" | "clock"> & Pick<EnrichmentDeps, "events">,
  windows: StoreWindows,
  customerId: string,
  options: RejudgeOptions,
): Promise<RejudgeOutcome> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    // Two re-judges of one customer at once (the periodic scan and a store sync's job) must not
    // both see the same change: on PostgreSQL the second waits for the first's row lock and then
    // reads its result; SQLite runs one writing transaction at a time.
    if (deps.db.dialect === "postgres") {
      await trx
        .selectFrom("enrichments")
        .select("customer_id")
        .where("customer_id", "=", customerId)
        .forUpdate()
        .execute();
    }
    return rejudgeInTransaction(trx, deps, windows, customerId, options);
  });
}

async function rejudgeInTransaction(
  trx: Transaction<Database>,
  deps: Pick<Deps, "clock"> & Pick<EnrichmentDeps, "events">,
  windows: StoreWindows,
  customerId: string,
  options: RejudgeOptions,
): Promise<RejudgeOutcome> {
  const c = await loadCustomerToRejudge(trx, customerId);
  if (c === undefined) return { kind: "skipped", reason: "no customer" };
  if (c.closed_at !== null) return { kind: "skipped", reason: "account closed" };
  if (c.enrichment_status !== "enriched" || c.score === null || c.signals === null) {
    return { kind: "skipped", reason: "not enriched" };
  }
  const now = deps.clock.now();
  const offline = await gatherOfflineSignals(trx, windows, c, now);
  // The provider lines (and the enrichment's notes: budget, low confidence) as stored; the
  // offline lines and the cap line are recomputed.
  const kept = readStoredSignals(c.signals).filter(
    (s) => s.source !== "offline" && s.source !== "score",
  );
  const { score, signals } = totalOf([...kept, ...offlineSignals(offline)]);
  const wasVip = c.vip === 1;
  const vip = isVip(score, c.vip_threshold);
  const signalsJson = JSON.stringify(signals);
  if (vip === wasVip && score === c.score && sameLines(signals, c.signals)) {
    return { kind: "unchanged" };
  }

  const change: VipChange | undefined =
    vip === wasVip
      ? undefined
      : {
          kind: vip ? "promoted" : "demoted",
          at: now,
          reason: vipChangeReason(vip, offline.lifetime, score, c.vip_threshold),
        };
  await trx
    .updateTable("enrichments")
    .set({
      score,
      signals: signalsJson,
      threshold: c.vip_threshold,
      rejudged_at: now,
      updated_at: now,
      ...(change === undefined
        ? {}
        : {
            vip: vip ? 1 : 0,
            vip_since: vip ? now : null,
            vip_changed_at: now,
            vip_change_reason: change.reason,
          }),
    })
    .where("customer_id", "=", customerId)
    .execute();
  if (change === undefined) return { kind: "rescored", score };
  if (c.sample === 1) return { kind: change.kind, score, reason: change.reason };

  const event: CustomerEnriched = {
    accountId: c.account_id,
    customerId,
    score,
    threshold: c.vip_threshold,
    vip,
    signals,
    historical: options.historical,
    requestId: options.requestId,
    change,
  };
  await raise(deps.events.customerEnriched, trx, event, now);
  if (vip) await raise(deps.events.vipFound, trx, { ...event, vip: true }, now);
  else await raise(deps.events.vipLost, trx, { ...event, vip: false, change }, now);
  return { kind: change.kind, score, reason: change.reason };
}

/** The same lines in any order (the enrichment writes its notes after the offline lines). */
function sameLines(signals: ScoreSignal[], stored: string): boolean {
  const key = (lines: ScoreSignal[]) =>
    lines
      .map((s) => JSON.stringify(s))
      .sort()
      .join("\n");
  return key(signals) === key(readStoredSignals(stored));
}

/** Everything a re-judge reads of the customer: the offline signals' columns and the result. */
function loadCustomerToRejudge(trx: Transaction<Database>, customerId: string) {
  return trx
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .innerJoin("accounts", "accounts.id", "stores.account_id")
    .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
    .select([
      "customers.id",
      "customers.store_id",
      "customers.email_normalized",
      "customers.address_zipcode",
      "customers.address_country",
      "customers.enrichment_status",
      "customers.sample",
      "stores.account_id",
      "accounts.vip_threshold",
      "accounts.closed_at",
      "enrichments.score",
      "enrichments.vip",
      "enrichments.signals",
    ])
    .where("customers.id", "=", customerId)
    .executeTakeFirst();
}
