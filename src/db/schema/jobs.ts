/**
 * The job queue (src/jobs): one row per job waiting, running or retrying; with the row types the
 * queue reads and updates (Job, JobUpdate).
 */
import type { Generated, Selectable, Updateable } from "kysely";

export interface JobsTable {
  id: string;
  task: string;
  payload: string;
  job_key: string | null;
  run_at: number;
  /** 0 live, 1 backfill: every due live job is claimed before any backfill job (0011). */
  priority: Generated<number>;
  /** Whose turn the job waits for: an account's id, or '' for the shared queue (0029). */
  queue_key: Generated<string>;
  /** Its place among due jobs of its priority while it waits for its first turn, else null. */
  fair_tag: number | null;
  attempts: Generated<number>;
  max_attempts: number;
  last_error: string | null;
  locked_by: string | null;
  locked_until: number | null;
  /** The X-Request-Id of the request (or job) that enqueued it, for following it in the logs. */
  request_id: string | null;
  created_at: number;
  updated_at: number;
}

export type Job = Selectable<JobsTable>;
export type JobUpdate = Updateable<JobsTable>;
