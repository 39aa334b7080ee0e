/**
 * The queue as `velvet jobs list` shows it: each job with its state, read from the row the
 * same way the claim and the metrics read it (see task.ts for the glossary):
 * - due: may run now (including a job whose worker died, once its lease ended);
 * - running: held under a live lease;
 * - scheduled: waiting for its backoff (or a provider's Retry-After);
 * - failed: given up (attempts exhausted, not held); `velvet jobs retry` revives it.
 */
import type { ExpressionBuilder } from "kysely";
import type { Db } from "../db/connect.js";
import type { Database } from "../db/schema.js";

export const JOB_STATES = ["due", "running", "scheduled", "failed"] as const;
export type JobState = (typeof JOB_STATES)[number];

export interface JobListing {
  id: string;
  task: string;
  state: JobState;
  jobKey: string | null;
  attempts: number;
  maxAttempts: number;
  runAt: number;
  lastError: string | null;
  lockedBy: string | null;
  requestId: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface ListJobsFilter {
  state?: JobState;
  task?: string;
  limit?: number;
}

type Jobs = ExpressionBuilder<Database, "jobs">;

function stateWhere(eb: Jobs, state: JobState, now: number) {
  const free = eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]);
  switch (state) {
    case "failed":
      return eb.and([eb("attempts", ">=", eb.ref("max_attempts")), eb("locked_by", "is", null)]);
    case "running":
      return eb.and([eb("locked_by", "is not", null), eb("locked_until", ">=", now)]);
    case "due":
      return eb.and([eb("attempts", "<", eb.ref("max_attempts")), eb("run_at", "<=", now), free]);
    case "scheduled":
      return eb.and([eb("attempts", "<", eb.ref("max_attempts")), eb("run_at", ">", now), free]);
  }
}

export function jobStateOf(
  row: {
    attempts: number;
    max_attempts: number;
    locked_by: string | null;
    locked_until: number | null;
    run_at: number;
  },
  now: number,
): JobState {
  if (row.locked_by !== null && row.locked_until !== null && row.locked_until >= now)
    return "running";
  if (row.attempts >= row.max_attempts) return "failed";
  return row.run_at <= now ? "due" : "scheduled";
}

/** Oldest first (ids are time-ordered), at most `limit` (default 100). */
export async function listJobs(db: Db, filter: ListJobsFilter, now: number): Promise<JobListing[]> {
  let query = db.kysely.selectFrom("jobs").selectAll();
  const { state, task } = filter;
  if (state !== undefined) query = query.where((eb) => stateWhere(eb, state, now));
  if (task !== undefined) query = query.where("task", "=", task);
  const rows = await query
    .orderBy("id")
    .limit(filter.limit ?? 100)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    task: r.task,
    state: jobStateOf(r, now),
    jobKey: r.job_key,
    attempts: r.attempts,
    maxAttempts: r.max_attempts,
    runAt: r.run_at,
    lastError: r.last_error,
    lockedBy: r.locked_by,
    requestId: r.request_id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  }));
}
