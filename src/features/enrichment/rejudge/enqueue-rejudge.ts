/**
 * The keyed `rejudge-customer` job, for the callers that know which customer changed outside the
 * API's intake: a store sync (a known order's status changed, a known customer's order pulled)
 * and a history import (once per customer, at its end). One job per customer (`jobKey`): many
 * changes to one customer's orders before it runs collapse into one re-judge. The API's orders
 * of returning customers are found by the periodic scan instead (rejudge-tasks.ts), so the
 * intake writes nothing for them.
 */
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "../../../db/schema.js";
import { JOB_PRIORITIES } from "../../../jobs/claim-jobs.js";
import { enqueueJob, jobOf } from "../../../jobs/enqueue-job.js";
import { taskType } from "../../../jobs/task.js";

export const RejudgeCustomerPayload = z.object({
  customerId: z.string().min(1),
  /** true for an imported history or a store backfill: machines hear, people are not alerted. */
  historical: z.boolean().default(false),
});

export const REJUDGE_CUSTOMER = taskType("rejudge-customer", RejudgeCustomerPayload);

export function rejudgeJobKey(customerId: string): string {
  return `${REJUDGE_CUSTOMER.task}:${customerId}`;
}

export async function enqueueRejudge(
  db: Kysely<Database> | Transaction<Database>,
  customerId: string,
  now: number,
  options: { historical: boolean; requestId?: string | null },
): Promise<void> {
  await enqueueJob(
    db,
    jobOf(
      REJUDGE_CUSTOMER,
      { customerId, historical: options.historical },
      {
        jobKey: rejudgeJobKey(customerId),
        requestId: options.requestId ?? null,
        priority: JOB_PRIORITIES[options.historical ? "backfill" : "live"],
      },
    ),
    now,
  );
}
