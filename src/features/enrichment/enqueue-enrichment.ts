import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";

export const ENRICH_CUSTOMER_TASK = "enrich-customer";

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
      jobKey: `${ENRICH_CUSTOMER_TASK}:${customerId}`,
      maxAttempts,
      requestId,
    },
    now,
  );
}
