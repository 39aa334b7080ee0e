import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";

export const ENRICH_CUSTOMER_TASK = "enrich-customer";

export function enrichmentJobKey(customerId: string): string {
  return `${ENRICH_CUSTOMER_TASK}:${customerId}`;
}

/** One enrichment job per customer, keyed so a requeue reuses the row instead of adding one. */
export function enqueueEnrichment(
  trx: Transaction<Database>,
  customerId: string,
  now: number,
  maxAttempts: number,
  requestId: string | null = null,
) {
  return enqueueJob(
    trx,
    {
      task: ENRICH_CUSTOMER_TASK,
      payload: { customerId },
      jobKey: enrichmentJobKey(customerId),
      maxAttempts,
      requestId,
    },
    now,
  );
}
