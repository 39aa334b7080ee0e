import type { Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.js";
import { JOB_PRIORITIES, type JobPriority } from "../../jobs/claim-jobs.js";
import { enqueueJob, type JobSpec } from "../../jobs/enqueue-job.js";
import { taskType } from "../../jobs/task.js";

export const EnrichCustomerPayload = z.object({
  customerId: z.string().min(1),
  /** false for an imported history: scored like any other, but historical (no human alert). */
  alerts: z.boolean().default(true),
});

export const ENRICH_CUSTOMER = taskType("enrich-customer", EnrichCustomerPayload);
export const ENRICH_CUSTOMER_TASK = ENRICH_CUSTOMER.task;

export interface EnrichmentOptions {
  /** false: a VIP found by this enrichment raises no alert (an imported history). */
  alerts: boolean;
  priority: JobPriority;
  /** The account the enrichment is for: the job takes that account's turns (jobs/fair-tag.ts). */
  accountId?: string;
}

export function enrichmentJobKey(customerId: string): string {
  return `${ENRICH_CUSTOMER_TASK}:${customerId}`;
}

export const LIVE_ENRICHMENT: EnrichmentOptions = { alerts: true, priority: "live" };

/**
 * A customer's enrichment job (PostgreSQL's orders/submission-statement-sql.ts writes the same).
 */
export function enrichmentJob(
  customerId: string,
  maxAttempts: number,
  options: EnrichmentOptions = LIVE_ENRICHMENT,
  requestId: string | null = null,
): JobSpec & { payload: z.input<typeof EnrichCustomerPayload> } {
  // `alerts` is written only when off, so live payloads stay as they always were. Typed by the
  // task's schema; not parsed again at run time (jobOf does), since every new customer on the
  // order path makes one and the payload is only ever this id.
  const payload: z.input<typeof EnrichCustomerPayload> = options.alerts
    ? { customerId }
    : { customerId, alerts: false };
  return {
    task: ENRICH_CUSTOMER_TASK,
    payload,
    jobKey: enrichmentJobKey(customerId),
    maxAttempts,
    priority: JOB_PRIORITIES[options.priority],
    requestId,
    ...(options.accountId === undefined ? {} : { queueKey: options.accountId }),
  };
}

/** One enrichment job per customer, keyed so a requeue reuses the row instead of adding one. */
export function enqueueEnrichment(
  trx: Transaction<Database>,
  customerId: string,
  now: number,
  maxAttempts: number,
  options: EnrichmentOptions = LIVE_ENRICHMENT,
  requestId: string | null = null,
) {
  return enqueueJob(trx, enrichmentJob(customerId, maxAttempts, options, requestId), now);
}
