/**
 * Writing a job into the outbox, always inside the caller's transaction: the job commits with
 * the data that needs it, or not at all.
 *
 * A job with a `jobKey` is unique by that key. Enqueueing an existing key resets that row to run
 * again (attempts back to 0, error cleared) unless a worker holds it right now, in which case the
 * row is left alone: the running attempt already serves the request. A reset row drops any
 * expired lease, so the worker that held it can no longer settle it (see `settle-job.ts`).
 *
 * A backfill job to run now (no `runAt`) takes its turn among the due backfill jobs by queue
 * key (fair-tag.ts): give work done for an account `queueKey: accountId`, so one account's
 * thousands of jobs do not hold back another's. Live jobs and jobs given a `runAt` wait by run_at.
 *
 * Enqueueing does not wake a worker: the caller commits first, then calls `notify()` on the
 * process's JobWakeup (`job-wakeup.ts`), which also tells workers in other processes.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import type { z } from "zod";
import type { SqliteDirect } from "../db/connect.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { Database } from "../db/schema.js";
import type { StatementCache } from "../db/sqlite-statement-cache.js";
import { newId } from "../lib/ids.js";
import { fairTagSql } from "./fair-tag.js";
import type { TaskType } from "./task.js";

export interface JobSpec {
  task: string;
  payload: unknown;
  jobKey?: string;
  runAt?: number;
  maxAttempts?: number;
  /** The request (or job) that caused this one: its worker log lines carry it. */
  requestId?: string | null;
  /** 0 live (the default), 1 backfill: see claim-jobs.ts. */
  priority?: number;
  /** Whose turn the job waits for (fair-tag.ts): the account it works for; else shared. */
  queueKey?: string;
}

export const DEFAULT_MAX_ATTEMPTS = 3;

/**
 * A job of a typed task (task.ts `TaskType`): the payload must match the task's schema, at
 * compile time and again here, so a malformed job is refused where it is written, not found
 * when a worker runs it. The payload is stored as given (defaults stay implicit).
 */
export function jobOf<S extends z.ZodType>(
  type: TaskType<S>,
  payload: z.input<S>,
  options: Omit<JobSpec, "task" | "payload"> = {},
): JobSpec {
  type.payload.parse(payload);
  return { ...options, task: type.task, payload };
}

export async function enqueueJob(
  db: Kysely<Database> | Transaction<Database>,
  spec: JobSpec,
  now: number,
): Promise<void> {
  const query = takesTurns(spec) ? upsertJob : upsertScheduledJob;
  await query.execute(db, jobValues(spec, now));
}

/** The same on SQLite inside `transactSync` (db/transact-sync.ts), at once on the writer. */
export function enqueueJobSync(
  sqlite: SqliteDirect,
  writer: StatementCache,
  spec: JobSpec,
  now: number,
): void {
  const query = takesTurns(spec) ? upsertJob : upsertScheduledJob;
  query.runSync(sqlite, writer, jobValues(spec, now));
}

/**
 * Backfill jobs to run now take turns by queue key. Live jobs do not: they are claimed before
 * any backfill, first come first served, and the tag's two index probes would double the cost
 * of a single-job enqueue on SQLite's order path (measured: 0.32 → 0.71 ms a transaction).
 */
function takesTurns(spec: JobSpec): boolean {
  return spec.runAt === undefined && (spec.priority ?? 0) !== 0;
}

function jobValues(spec: JobSpec, now: number): JobValues {
  return {
    id: newId(now),
    task: spec.task,
    payload: JSON.stringify(spec.payload),
    job_key: spec.jobKey ?? null,
    run_at: spec.runAt ?? now,
    max_attempts: spec.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    request_id: spec.requestId ?? null,
    priority: spec.priority ?? 0,
    queue_key: spec.queueKey ?? "",
    now,
  };
}

interface JobValues {
  id: string;
  task: string;
  payload: string;
  job_key: string | null;
  run_at: number;
  max_attempts: number;
  request_id: string | null;
  priority: number;
  queue_key: string;
  now: number;
}

/**
 * Prepared once (db/prepared-query.ts): every new customer enqueues a job on the order path. A
 * backfill job to run now takes a fair tag (fair-tag.ts); others (`upsertScheduledJob`) none.
 */
const upsertJob = upsertJobQuery(true);
const upsertScheduledJob = upsertJobQuery(false);

function upsertJobQuery(tagged: boolean) {
  return preparedQuery(
    [
      "id",
      "task",
      "payload",
      "job_key",
      "run_at",
      "max_attempts",
      "priority",
      "request_id",
      "queue_key",
      "now",
    ],
    (db, v: JobValues) => {
      // A new row and a revived one start alike: due at run_at, no attempt, no error, no lease.
      const fresh = {
        task: v.task,
        payload: v.payload,
        run_at: v.run_at,
        attempts: 0,
        max_attempts: v.max_attempts,
        priority: v.priority,
        last_error: null,
        locked_by: null,
        locked_until: null,
        request_id: v.request_id,
        queue_key: v.queue_key,
        updated_at: v.now,
      };
      const fairTag = tagged ? fairTagSql(sql.val(v.queue_key), sql.val(v.priority)) : null;
      return db
        .insertInto("jobs")
        .values({ id: v.id, job_key: v.job_key, created_at: v.now, ...fresh, fair_tag: fairTag })
        .onConflict((oc) =>
          oc
            .column("job_key")
            .doUpdateSet({ ...fresh, fair_tag: sql`excluded.fair_tag` })
            .where((eb) =>
              eb.or([eb("jobs.locked_until", "is", null), eb("jobs.locked_until", "<", v.now)]),
            ),
        );
    },
  );
}
