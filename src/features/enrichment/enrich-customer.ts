/**
 * The `enrich-customer` job, one pipeline read top to bottom: look up (every configured provider
 * about a new customer, in parallel) → merge their profiles → score (with the offline signals)
 * → decide (VIP or not, against the account's threshold) → save the explained result → raise
 * "customer enriched" and, for a VIP, "VIP found" (`deps.events`, whose handlers main.ts
 * registers: alerts, destinations), the last four in one transaction.
 *
 * Failure policy:
 * - a provider that answers (match or not found) is asked only once; its answer is kept;
 * - a transient failure (timeout, 5xx, open circuit) makes the attempt `retry`, after the
 *   provider's Retry-After when it gave one; after the last attempt the customer is `failed`,
 *   with the partial results and the last error kept, and their next order requeues it;
 * - a provider that only asks us to come back later (429 with Retry-After, FullContact's 202
 *   "still searching") is not failing: the job waits without spending an attempt, for up to
 *   MAX_WAITING_MS since the enrichment was queued, after which it counts like any failure;
 * - a permanent failure (bad key, no credits, a malformed answer) is recorded and explained but
 *   does not block: retrying cannot fix it, so the customer is scored on what the others said.
 */

import type { z } from "zod";
import { preparedQuery } from "../../db/prepared-query.js";
import type { Deps } from "../../deps.js";
import { raise } from "../../jobs/event-handlers.js";
import type { JobContext, JobOutcome, TaskDefinition } from "../../jobs/task.js";
import { recordProviderSpend } from "../billing/provider-spend.js";
import { ENRICH_CUSTOMER, type EnrichCustomerPayload } from "./enqueue-enrichment.js";
import type { CustomerEnriched, EnrichmentDeps } from "./enrichment-deps.js";
import { mergeMatches } from "./merge-profiles.js";
import { createStoreWindows, type StoreWindows } from "./offline/store-order-window.js";
import { budgetStoppedSignal, planLookups } from "./plan-lookups.js";
import { type SettledAnswers, settledAnswers } from "./provider-results.js";
import { billedLookups } from "./providers/billed-lookups.js";
import type { ProviderQuery } from "./providers/provider.js";
import { requeueFailedEnrichment } from "./requeue-failed-enrichment.js";
import {
  markEnrichmentFailed,
  saveEnrichmentResult,
  saveUnfinishedAttempt,
} from "./save-enrichment.js";
import { isVip } from "./score/compute-score.js";
import { scoreCustomer } from "./score-customer.js";
import { withSourceConfidence } from "./signal-confidence.js";

/** How long a provider may keep saying "later" before that counts as failing. */
export const MAX_WAITING_MS = 10 * 60_000;
const WAIT_CAUSES = new Set(["rate_limited", "pending"]);

const NONE_SETTLED: SettledAnswers = { providers: new Set(), matches: [], discarded: [] };

type Payload = z.infer<typeof EnrichCustomerPayload>;

/** One per worker: its store-window snapshots (offline/store-order-window.ts) are per process. */
export function createEnrichCustomerTask(): TaskDefinition<Payload, Deps & EnrichmentDeps> {
  const windows = createStoreWindows();
  return {
    ...ENRICH_CUSTOMER,
    handle: (deps, payload, ctx) => enrichCustomer(deps, windows, payload, ctx),
    onGiveUp: (deps, payload, error) => markEnrichmentFailed(deps, payload.customerId, error),
    onRetry: async (trx, payload, now) => {
      await requeueFailedEnrichment(trx, payload.customerId, now);
    },
  };
}

async function enrichCustomer(
  deps: Deps & EnrichmentDeps,
  windows: StoreWindows,
  { customerId, alerts }: Payload,
  ctx: JobContext,
): Promise<JobOutcome> {
  const providers = deps.providers;
  const db = deps.db.kysely;
  const customer = await loadCustomerToEnrich.executeTakeFirst(db, { id: customerId });
  if (!customer) return { kind: "fail", error: `customer ${customerId} does not exist` };
  // A closed account's customers are about to be erased (privacy/close-account.ts): nobody is
  // asked about them and nothing is spent.
  if (customer.closed_at !== null) return { kind: "done" };
  // At least once: a repeated run after success has nothing left to do, unless the budget
  // stopped its paid lookups: then this run asks them.
  const deferred = (customer.paid_lookups_deferred ?? 0) !== 0;
  if (customer.enrichment_status === "enriched" && !deferred) return { kind: "done" };

  const attempt = { attempt: ctx.attempt, startedAt: deps.clock.now(), requestId: ctx.requestId };
  // Answers are only ever stored with the enrichment row (save-enrichment.ts): without the row,
  // as on every new customer's first attempt, there is nothing to look up.
  const settled = customer.has_enrichment_row ? await settledAnswers(db, customerId) : NONE_SETTLED;
  const query: ProviderQuery = {
    email: customer.email,
    emailNormalized: customer.email_normalized,
    firstName: customer.first_name,
    lastName: customer.last_name,
    phone: customer.phone,
  };
  // Sample data (features/demo) is fictional people at example domains: no outside source is
  // asked about them, so they cost nothing and leave nothing with anyone.
  const unanswered =
    customer.sample === 1 ? [] : providers.filter((p) => !settled.providers.has(p.name));
  const account = { id: customer.account_id, monthlyBudgetUsd: customer.monthly_budget_usd };
  const plan = await planLookups(
    db,
    deps.config.enrichment,
    account,
    unanswered,
    attempt.startedAt,
  );
  // Still no room: the stored result stands, nothing to ask, nothing to tell anyone again.
  if (deferred && customer.enrichment_status === "enriched" && plan.stopped.length > 0) {
    return { kind: "done" };
  }
  const pending = plan.ask;
  // All answers come back together, once the slowest provider has answered, and are stored
  // with the attempt's outcome in one transaction (from the provider thread, raw bodies arrive
  // as bytes outside the JS heap). An attempt that is interrupted (lease, shutdown) still
  // stores what came in; only a crash loses answers, which the next attempt asks again.
  const results = await deps.lookupAll(pending, query, ctx.signal);
  const now = deps.clock.now();
  // What the providers billed goes on the account's ledger with the answers, in their
  // transaction: an answer is stored (and never asked again) exactly when it is counted.
  const billed = billedLookups(results, (name) => deps.config.enrichment[name].priceUsd);
  const spend = { accountId: customer.account_id, billed, reservation: plan.reservation };

  const transient = results.filter((r) => r.kind === "transient");
  if (transient.length > 0) {
    await saveUnfinishedAttempt(deps, customerId, attempt, results, spend);
    const error = transient.map((r) => `${r.provider}: ${r.error}`).join("; ");
    const waits = transient.map((r) => r.retryAfterMs ?? 0);
    const delayMs = Math.max(...waits);
    const onlyAskedToWait = transient.every(
      (r) => r.cause !== undefined && WAIT_CAUSES.has(r.cause),
    );
    // updated_at is when the enrichment was (re)queued: the customer row is not touched since.
    if (onlyAskedToWait && delayMs > 0 && now - customer.updated_at < MAX_WAITING_MS) {
      return { kind: "wait", reason: error, delayMs };
    }
    return delayMs > 0 ? { kind: "retry", error, delayMs } : { kind: "retry", error };
  }

  // Merge: what every provider matched, this attempt's and earlier attempts' alike.
  const matches = [
    ...settled.matches,
    ...results.flatMap((r) =>
      r.kind === "matched"
        ? [{ provider: r.provider, profile: r.profile, confidence: r.confidence }]
        : [],
    ),
  ];
  const profile = mergeMatches(matches);
  const permanent = results.flatMap((r) =>
    r.kind === "permanent" ? [`${r.provider}: ${r.error}`] : [],
  );
  await db.transaction().execute(async (trx) => {
    // Score inside the transaction that stores the result: the score reads the data it is
    // stored with (and on SQLite reads through the writer's warm page cache).
    const scored = await scoreCustomer(
      { db: trx, windows, now },
      customer,
      profile,
      providers.length,
    );
    // Decide: the threshold in force now decides; changing it later does not rewrite this.
    const owner = await findOwner.executeTakeFirst(trx, { customer_id: customerId });
    if (owner === undefined) throw new Error(`customer ${customerId} does not exist`);
    scored.signals = withSourceConfidence(scored.signals, matches);
    if (plan.stopped.length > 0) scored.signals.push(budgetStoppedSignal(plan.stopped));
    for (const discarded of [
      ...settled.discarded,
      ...results.flatMap((r) =>
        r.kind === "not_found" && r.reason ? [`${r.provider}: ${r.reason}`] : [],
      ),
    ]) {
      scored.signals.push({
        source: "profile",
        signal: "low_confidence",
        value: discarded,
        points: 0,
      });
    }
    const vip = isVip(scored.score, owner.vip_threshold);
    const providerErrors = permanent.length > 0 ? permanent.join("; ") : null;
    const result = {
      scored,
      vip,
      threshold: owner.vip_threshold,
      providerErrors,
      // 1: a live customer, 2: from an imported history (its full lookup alerts nobody either).
      paidLookupsDeferred: (plan.stopped.length === 0 ? 0 : alerts ? 1 : 2) as 0 | 1 | 2,
    };
    const savedAt = deps.clock.now();
    await saveEnrichmentResult(trx, customerId, attempt, results, result, savedAt);
    // Sample data (features/demo) is scored and listed, never handed on to anyone.
    if (customer.sample !== 1) {
      // Raise the events in the same transaction: what the handlers enqueue commits with the
      // result. An imported history's customers are historical: machines hear of them, people
      // are not alerted (the alerts' handler holds those back).
      const enriched: CustomerEnriched = {
        accountId: owner.account_id,
        customerId,
        score: scored.score,
        threshold: owner.vip_threshold,
        vip,
        signals: scored.signals,
        historical: !alerts,
        requestId: ctx.requestId,
      };
      await raise(deps.events.customerEnriched, trx, enriched, savedAt);
      if (enriched.vip) await raise(deps.events.vipFound, trx, { ...enriched, vip: true }, savedAt);
    }
    // Last: the account's month rows of the spend ledger are shared by its enrichments (in
    // shards, billing/provider-spend.ts), and on PostgreSQL a row stays locked until the
    // commit. Written last, the lock is held through the commit only.
    await recordProviderSpend(trx, customer.account_id, billed, savedAt, plan.reservation);
  });
  // What the handlers enqueued was committed with the result: let the worker start it now.
  deps.jobs.notify();
  return { kind: "done" };
}

const findOwner = preparedQuery(["customer_id"], (db, v: { customer_id: string }) =>
  db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .innerJoin("accounts", "accounts.id", "stores.account_id")
    .select(["accounts.id as account_id", "accounts.vip_threshold"])
    .where("customers.id", "=", v.customer_id),
);

/**
 * Prepared once (db/prepared-query.ts): it runs for every enrichment. Everything the attempt
 * needs of the customer, the offline signals' columns included, and whether the enrichment row
 * exists yet.
 */
const loadCustomerToEnrich = preparedQuery(["id"], (db, v: { id: string }) =>
  db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .innerJoin("accounts", "accounts.id", "stores.account_id")
    .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
    .select((eb) => [
      "customers.id",
      "stores.account_id",
      "accounts.monthly_budget_usd",
      "accounts.closed_at",
      "enrichments.paid_lookups_deferred",
      "customers.store_id",
      "customers.email",
      "customers.email_normalized",
      "customers.first_name",
      "customers.last_name",
      "customers.phone",
      "customers.address_zipcode",
      "customers.address_country",
      "customers.enrichment_status",
      "customers.updated_at",
      "customers.sample",
      eb("enrichments.customer_id", "is not", null).as("has_enrichment_row"),
    ])
    .where("customers.id", "=", v.id),
);
