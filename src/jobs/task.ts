/**
 * Glossary of the job system (after graphile-worker, pg-boss and Solid Queue):
 *
 * - job: a row in `jobs`, written in the same transaction as the data that needs it (the outbox).
 * - task: what a job does, named by `jobs.task`; a TaskDefinition says how to run it.
 * - job key: an optional unique name for a job; enqueueing it again reuses the row.
 * - worker: one loop that claims and runs jobs (`createWorker`, in `velvet serve` or
 *   `velvet worker`); its worker id is `hostname:pid:random`, unique per start.
 * - due: `run_at <= now`, `attempts < max_attempts`, and not under a live lease.
 * - claim: one statement that leases up to N due jobs to a worker and counts the attempt.
 * - attempt: one run of a job. `attempts` counts runs started; a job with
 *   attempts >= max_attempts is not run again (it stays, with last_error, for inspection).
 * - lease: a claimed job carries `locked_by` (the worker) and `locked_until`; another worker may
 *   claim it only after the lease has expired, which is how a job held by a dead process runs
 *   again. Every write a worker makes to a job it ran names the lease it was given (id, worker,
 *   attempt), so a worker whose lease expired cannot touch a job another worker re-claimed.
 * - backoff: the delay before the next attempt after a failure, exponential with full jitter,
 *   unless the outcome names its own delay (a provider's Retry-After).
 * - give up: a job that failed permanently (`fail`, its last attempt failed, a malformed payload,
 *   an unknown task) keeps its row with attempts = max_attempts, last_error and no lease; the
 *   task's `onGiveUp` runs once. Enqueueing the same job key again revives the row.
 * - abandoned: a job whose last attempt's worker died (attempts exhausted, lease expired); the
 *   next worker gives it up instead of leaving it locked forever.
 * - notify: an in-process wake-up (JobWakeup) rung after a commit that enqueued a job, so the
 *   worker in the same process claims it at once; polling alone is correct, only slower.
 * - periodic task: a task with `periodic`; each worker, when it starts, makes sure its one keyed
 *   job (`periodic:<task>`) exists (reviving it if it was given up), and the handler ends each
 *   run with `again`, which reschedules that same row. One row per task, whatever the number of
 *   workers: a run is claimed by one worker like any job.
 * - release: on shutdown, a job still running after the grace period is handed back: unlocked,
 *   due now, and the interrupted attempt does not count.
 *
 * Delivery is at least once: a handler may run again after a crash, so handlers (and
 * `onGiveUp`) are idempotent. No job runs on two workers at once while handlers honour
 * `ctx.signal`, which is aborted before the lease runs out.
 */
import type { Transaction } from "kysely";
import type { Logger } from "pino";
import type { z } from "zod";
import type { Config } from "../config.js";
import type { Db } from "../db/connect.js";
import type { Database } from "../db/schema.js";
import type { Clock } from "../lib/clock.js";
import type { JobWakeup } from "./job-wakeup.js";

/**
 * What the job system itself uses of the process. A worker is given more (`D`: whatever its
 * tasks need, composed in main.ts) and hands that on to each task untouched, so the queue names
 * no feature.
 */
export interface WorkerDeps {
  config: Pick<Config, "worker">;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Rung after a commit that enqueued jobs; the worker subscribes to it when present. */
  jobs?: JobWakeup;
}

export interface JobContext {
  jobId: string;
  /** The number of this attempt, from 1. */
  attempt: number;
  maxAttempts: number;
  /** The X-Request-Id of the request that enqueued the job, if any: pass it on to its jobs. */
  requestId: string | null;
  /**
   * Aborted when the worker stops and the job has not finished within the grace period, or
   * shortly before the lease runs out. A handler should then return promptly.
   */
  signal: AbortSignal;
}

/** What a handler says about one attempt. A thrown error counts as `retry` with that error. */
export type JobOutcome =
  | { kind: "done" }
  | { kind: "retry"; error: string; delayMs?: number }
  /**
   * Not a failure: an outside service asked us to come back later (a 429 with Retry-After, a
   * lookup still being computed). The job runs again after `delayMs` and this attempt does not
   * count. The handler bounds how long it keeps waiting, or a job could wait forever.
   */
  | { kind: "wait"; reason: string; delayMs: number }
  | { kind: "fail"; error: string }
  /**
   * This run is finished and the job runs again after `delayMs` as new (attempts back to 0,
   * error cleared): how a periodic task schedules its next run, or a long task its next batch.
   */
  | { kind: "again"; delayMs: number };

/**
 * Exponential backoff: the n-th retry's ceiling is min(maxMs, baseMs·2^(n-1)); the wait is
 * random(0, ceiling) (full jitter), or ceiling·(1 ± spread) when `spread` is set (backoff.ts).
 */
export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  spread?: number;
}

/**
 * A task's name together with its payload's schema, declared once by the feature that owns the
 * task and shared by both ends: the definition (`task`, `payload`) and every place that enqueues
 * it (`jobOf` in enqueue-job.ts), where a payload of the wrong shape does not compile and is
 * refused at run time before it reaches the outbox.
 */
export interface TaskType<S extends z.ZodType = z.ZodType> {
  task: string;
  payload: S;
}

export function taskType<S extends z.ZodType>(task: string, payload: S): TaskType<S> {
  return { task, payload };
}

/**
 * How a worker runs one task. A list of tasks with different payloads is a
 * `TaskDefinition<unknown, D>[]`: each definition fits it (its methods take the payload as a
 * parameter, which TypeScript checks both ways), and the worker hands its methods only a payload
 * that definition's own `payload` schema has parsed. Keep the methods in method syntax: as
 * function-typed properties they would no longer fit such a list.
 */
export interface TaskDefinition<P = unknown, D extends WorkerDeps = WorkerDeps> {
  task: string;
  /** Payloads are validated when a job is run; a malformed payload fails the job permanently. */
  payload: z.ZodType<P>;
  handle(deps: D, payload: P, ctx: JobContext): Promise<JobOutcome>;
  /**
   * Called once when the job will not be tried again (attempts exhausted or `fail`), while the
   * worker still holds the job; if the process dies meanwhile, another worker calls it again.
   * Not called for a malformed payload (there is no valid payload to pass).
   */
  onGiveUp?(deps: D, payload: P, error: string): Promise<void>;
  /** Runs on its own every `everyMs` (see "periodic task" above); its payload is `{}`. */
  periodic?: { everyMs: number };
  /**
   * Run once when a worker that has this task starts, before its first claim (for example: make
   * jobs that waited for something this process has due now). A failure is logged, not fatal.
   */
  onWorkerStart?(deps: D): Promise<void>;
  /**
   * Called in the transaction that revives a given-up job (`velvet jobs retry`, the
   * dashboard's Settings → System): undo what `onGiveUp` marked, so the data and the job agree.
   */
  onRetry?(trx: Transaction<Database>, payload: P, now: number): Promise<void>;
  /** Overrides the worker's default backoff (1 s base, doubling, capped at 5 minutes). */
  backoff?: BackoffPolicy;
}
