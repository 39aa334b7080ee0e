/**
 * Writing a job into the outbox, always inside the caller's transaction: the job commits with
 * the data that needs it, or not at all.
 *
 * A job with a `jobKey` is unique by that key. Enqueueing an existing key resets that row to run
 * again (attempts back to 0, error cleared) unless a worker holds it right now, in which case the
 * row is left alone: the running attempt already serves the request. A reset row drops any
 * expired lease, so the worker that held it can no longer settle it (see `settle-job.ts`).
 *
 * Enqueueing does not wake a worker: the caller commits first, then calls `notify()` on the
 * process's JobWakeup (`job-wakeup.ts`); other processes find the job at their next poll.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema.js";
import { newId } from "../lib/ids.js";

export interface JobSpec {
  task: string;
  payload: unknown;
  jobKey?: string;
  runAt?: number;
  maxAttempts?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 3;

export async function enqueueJob(
  db: Kysely<Database> | Transaction<Database>,
  spec: JobSpec,
  now: number,
): Promise<void> {
  const runAt = spec.runAt ?? now;
  const maxAttempts = spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const payload = JSON.stringify(spec.payload);
  await db
    .insertInto("jobs")
    .values({
      id: newId(now),
      task: spec.task,
      payload,
      job_key: spec.jobKey ?? null,
      run_at: runAt,
      attempts: 0,
      max_attempts: maxAttempts,
      last_error: null,
      locked_by: null,
      locked_until: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) =>
      oc
        .column("job_key")
        .doUpdateSet({
          task: spec.task,
          payload,
          run_at: runAt,
          attempts: 0,
          max_attempts: maxAttempts,
          last_error: null,
          locked_by: null,
          locked_until: null,
          updated_at: now,
        })
        .where((eb) =>
          eb.or([eb("jobs.locked_until", "is", null), eb("jobs.locked_until", "<", now)]),
        ),
    )
    .execute();
}
