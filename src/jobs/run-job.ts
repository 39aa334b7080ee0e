/**
 * One attempt of one claimed job: find its task, validate the payload, run the handler, and
 * settle the outcome (delete, reschedule, give up or, at shutdown, release).
 */
import { isDatabaseUnavailable } from "../db/errors.js";
import { backoffDelayMs } from "./backoff.js";
import type { ClaimedJob } from "./claim-jobs.js";
import { giveUpJob } from "./give-up-job.js";
import {
  deleteJob,
  type Lease,
  leaseOf,
  postponeJob,
  releaseJob,
  repeatJob,
  rescheduleJob,
} from "./settle-job.js";
import type { BackoffPolicy, JobOutcome, TaskDefinition, WorkerDeps } from "./task.js";

export interface JobRunner<D extends WorkerDeps = WorkerDeps> {
  deps: D;
  tasks: ReadonlyMap<string, TaskDefinition<unknown, D>>;
  leaseMs: number;
  backoff: BackoffPolicy;
  random: () => number;
}

/** What happened to the job; `lost` means its lease had moved on and nothing was written. */
export type RunResult = "done" | "retried" | "failed" | "released" | "lost";

/** The abort reason when the worker stops and the grace period is over. */
export class WorkerStopping extends Error {
  override name = "WorkerStopping";
}

/** The abort reason shortly before the lease runs out. */
export class LeaseExpiring extends Error {
  override name = "LeaseExpiring";
}

export async function runJob<D extends WorkerDeps>(
  runner: JobRunner<D>,
  job: ClaimedJob,
  signal: AbortSignal,
): Promise<RunResult> {
  const { deps } = runner;
  const lease = leaseOf(job);
  const task = runner.tasks.get(job.task);
  if (task === undefined) {
    const error = `unknown task "${job.task}": no task of that name is registered in this worker`;
    return settled(await giveUpJob(deps, runner.leaseMs, { job, lease, error }), "failed");
  }
  const parsed = parsePayload(task, job.payload);
  if (!parsed.ok) {
    return settled(
      await giveUpJob(deps, runner.leaseMs, { job, lease, error: parsed.error }),
      "failed",
    );
  }

  // The handler's own log lines name the job and the request that caused it.
  const jobDeps = { ...deps, log: jobLog(deps, job) };
  const outcome = await attempt(jobDeps, task, parsed.value, job, signal);
  if (signal.reason instanceof WorkerStopping && outcome.kind === "retry") {
    // Interrupted by shutdown, not failed: hand it back without counting the attempt.
    return settled(await releaseJob(deps.db, lease, deps.clock.now()), "released");
  }
  return settle(runner, job, lease, task, parsed.value, outcome);
}

async function attempt<D extends WorkerDeps>(
  deps: D,
  task: TaskDefinition<unknown, D>,
  payload: unknown,
  job: ClaimedJob,
  signal: AbortSignal,
): Promise<JobOutcome> {
  try {
    const outcome = await task.handle(deps, payload, {
      jobId: job.id,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      requestId: job.request_id,
      signal,
    });
    const kind = outcome?.kind;
    if (
      kind === "done" ||
      kind === "retry" ||
      kind === "wait" ||
      kind === "fail" ||
      kind === "again"
    ) {
      return outcome;
    }
    return { kind: "retry", error: `task "${job.task}" returned no valid outcome` };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // The database went away under the handler (a restart, a lost connection, a full disk):
    // the job is not at fault, so the attempt does not count; it runs again shortly.
    if (isDatabaseUnavailable(error))
      return {
        kind: "wait",
        reason: `database unavailable: ${message}`,
        delayMs: DATABASE_WAIT_MS,
      };
    return { kind: "retry", error: message };
  }
}

/** How long a job whose handler lost the database waits before it runs again. */
export const DATABASE_WAIT_MS = 5_000;

async function settle<D extends WorkerDeps>(
  runner: JobRunner<D>,
  job: ClaimedJob,
  lease: Lease,
  task: TaskDefinition<unknown, D>,
  payload: unknown,
  outcome: JobOutcome,
): Promise<RunResult> {
  const { deps } = runner;
  const log = jobLog(deps, job);
  if (outcome.kind === "done") return settled(await deleteJob(deps.db, lease), "done");
  if (outcome.kind === "again") {
    const now = deps.clock.now();
    const runAt = now + (Number.isFinite(outcome.delayMs) ? Math.max(0, outcome.delayMs) : 0);
    return settled(await repeatJob(deps.db, lease, { runAt, now }), "done");
  }
  if (outcome.kind === "wait") {
    const now = deps.clock.now();
    const delayMs = Number.isFinite(outcome.delayMs) ? Math.max(0, outcome.delayMs) : 0;
    log.info({ reason: outcome.reason, delayMs }, "job waits; the attempt does not count");
    const props = { runAt: now + delayMs, reason: outcome.reason, now };
    return settled(await postponeJob(deps.db, lease, props), "retried");
  }

  const exhausted = outcome.kind === "fail" || job.attempts >= job.max_attempts;
  if (exhausted) {
    log.warn({ error: outcome.error }, "job failed permanently");
    const giveUp = { job, lease, error: outcome.error, task, payload };
    return settled(await giveUpJob(deps, runner.leaseMs, giveUp), "failed");
  }
  const delayMs =
    outcome.delayMs !== undefined && Number.isFinite(outcome.delayMs)
      ? Math.max(0, outcome.delayMs)
      : backoffDelayMs(job.attempts, task.backoff ?? runner.backoff, runner.random);
  log.info({ error: outcome.error, delayMs }, "job will be retried");
  const now = deps.clock.now();
  const rescheduled = await rescheduleJob(deps.db, lease, {
    runAt: now + delayMs,
    error: outcome.error,
    now,
  });
  return settled(rescheduled, "retried");
}

function jobLog(deps: WorkerDeps, job: ClaimedJob): WorkerDeps["log"] {
  const bindings = { jobId: job.id, task: job.task, attempt: job.attempts };
  return deps.log.child(
    job.request_id === null ? bindings : { ...bindings, requestId: job.request_id },
  );
}

function settled(held: boolean, result: RunResult): RunResult {
  return held ? result : "lost";
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

export function parsePayload(task: Pick<TaskDefinition, "task" | "payload">, raw: string): Parsed {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return { ok: false, error: `invalid payload for task "${task.task}": not JSON` };
  }
  const result = task.payload.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .map((i) => `${i.path.length > 0 ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
  return { ok: false, error: `invalid payload for task "${task.task}": ${issues}` };
}

/**
 * A job whose last attempt never reported back (its worker died and the lease expired): give it
 * up, keeping the last error it recorded if any, so `onGiveUp` still runs and nothing is left
 * locked forever.
 */
export async function giveUpAbandonedJob<D extends WorkerDeps>(
  runner: JobRunner<D>,
  job: ClaimedJob,
): Promise<RunResult> {
  const task = runner.tasks.get(job.task);
  const parsed = task === undefined ? undefined : parsePayload(task, job.payload);
  const error =
    job.last_error ??
    `attempt ${job.attempts} of ${job.max_attempts} did not finish: its worker stopped and the lease expired`;
  const usable = parsed?.ok === true;
  const held = await giveUpJob(runner.deps, runner.leaseMs, {
    job,
    lease: leaseOf(job),
    error,
    task: usable ? task : undefined,
    payload: usable ? parsed.value : undefined,
  });
  return settled(held, "failed");
}
