/**
 * Glossary of the job system (after graphile-worker and Solid Queue):
 *
 * - job: a row in `jobs`, written in the same transaction as the data that needs it (the outbox).
 * - task: what a job does, named by `jobs.task`; a TaskDefinition says how to run it.
 * - job key: an optional unique name for a job; enqueueing it again reuses the row.
 * - attempt: one run of a job. `attempts` counts runs started; a job with
 *   attempts >= max_attempts is not run again (it stays, with last_error, for inspection).
 * - lease: a claimed job carries `locked_by` (the worker) and `locked_until`; another worker may
 *   claim it only after the lease has expired, which is how a job held by a dead process runs again.
 * - backoff: the delay before the next attempt after a failure, exponential with jitter, unless
 *   the outcome names its own delay (a provider's Retry-After).
 *
 * Delivery is at least once: a handler may run again after a crash, so handlers are idempotent.
 */
import type { z } from "zod";
import type { Deps } from "../deps.js";

export interface JobContext {
  jobId: string;
  /** The number of this attempt, from 1. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when the worker shuts down or the lease is about to run out. */
  signal: AbortSignal;
}

/** What a handler says about one attempt. A thrown error counts as `retry` with that error. */
export type JobOutcome =
  | { kind: "done" }
  | { kind: "retry"; error: string; delayMs?: number }
  | { kind: "fail"; error: string };

export interface TaskDefinition<P = unknown> {
  task: string;
  /** Payloads are validated when a job is run; a malformed payload fails the job permanently. */
  payload: z.ZodType<P>;
  handle(deps: Deps, payload: P, ctx: JobContext): Promise<JobOutcome>;
  /** Called once when the job will not be tried again (attempts exhausted or `fail`). */
  onGiveUp?(deps: Deps, payload: P, error: string): Promise<void>;
}
