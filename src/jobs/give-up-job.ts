/**
 * Giving a job up: it will not be tried again. The row stays (attempts = max_attempts,
 * last_error, no lease) for inspection until its job key is enqueued again, and the task's
 * `onGiveUp` runs while the worker still holds the row, so it is called once per give-up, or
 * again by another worker if this process dies in the middle (see `holdForGiveUp`).
 */
import type { ClaimedJob } from "./claim-jobs.js";
import { failJob, holdForGiveUp, type Lease } from "./settle-job.js";
import type { TaskDefinition, WorkerDeps } from "./task.js";

export interface GiveUp<D extends WorkerDeps = WorkerDeps> {
  job: ClaimedJob;
  lease: Lease;
  error: string;
  /** The task and its parsed payload, when both are known: only then can `onGiveUp` run. */
  task?: TaskDefinition<unknown, D>;
  payload?: unknown;
}

/** Returns false when the worker no longer held the job (its lease had expired and moved on). */
export async function giveUpJob<D extends WorkerDeps>(
  deps: D,
  leaseMs: number,
  g: GiveUp<D>,
): Promise<boolean> {
  const db = deps.db;
  const onGiveUp = g.task?.onGiveUp;
  if (onGiveUp === undefined || g.task === undefined) {
    return failJob(db, g.lease, { error: g.error, now: deps.clock.now() });
  }
  const held = await holdForGiveUp(db, g.lease, { error: g.error, now: deps.clock.now(), leaseMs });
  if (!held) return false;
  try {
    await onGiveUp.call(g.task, deps, g.payload, g.error);
  } catch (error) {
    // The job is over either way; a failing onGiveUp must not keep it locked or retried.
    deps.log.error({ err: error, jobId: g.job.id, task: g.job.task }, "onGiveUp failed");
  }
  return failJob(
    db,
    { ...g.lease, attempts: g.job.max_attempts },
    { error: g.error, now: deps.clock.now() },
  );
}
