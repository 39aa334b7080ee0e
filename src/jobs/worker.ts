/**
 * The worker loop: claims due jobs while it has room (up to `concurrency` in flight), runs
 * them, and sleeps `pollIntervalMs` when the queue is empty (`idlePollIntervalMs` while
 * PostgreSQL wake-ups from other processes arrive: job-wakeup.ts). It claims again at once when a
 * job finishes after a full batch (there is probably more) or when woken by `notify()`.
 *
 * Each job's AbortSignal fires shortly before its lease runs out (a handler that ignores it
 * risks a second worker starting the same job) and when `stop()`'s grace period is over.
 * `stop()` stops claiming, lets running jobs finish for `graceMs`, then aborts and releases what
 * it still holds, so a SIGTERM loses nothing and does not use up an attempt.
 */
import { randomBytes } from "node:crypto";
import os from "node:os";
import { createTurnQueue } from "../lib/turn-queue.js";
import { DEFAULT_BACKOFF } from "./backoff.js";
import { type ClaimedJob, claimAbandonedJobs, claimJobs } from "./claim-jobs.js";
import { doorbell, settledWithin } from "./doorbell.js";
import type { JobWakeup } from "./job-wakeup.js";
import { ensurePeriodicJobs } from "./periodic-jobs.js";
import {
  giveUpAbandonedJob,
  type JobRunner,
  LeaseExpiring,
  runJob,
  WorkerStopping,
} from "./run-job.js";
import { leaseOf, releaseJob } from "./settle-job.js";
import type { BackoffPolicy, TaskDefinition, WorkerDeps } from "./task.js";

/** Below common orchestrator kill timeouts (Docker: 10 s), so a release still happens. */
export const DEFAULT_GRACE_MS = 8000;
/** After the grace period, how long aborted handlers get to return before their jobs are released. */
const ABORT_SETTLE_MS = 1000;
/**
 * The least time between two claims. Woken once per new job, a busy server (hundreds of jobs a
 * second) would spend much of its event loop claiming one job at a time, each claim a write
 * transaction of its own. Spacing claims gathers the jobs of a few milliseconds into one claim,
 * at the cost of that much latency.
 */
export const MIN_CLAIM_GAP_MS = 20;

export interface WorkerOptions {
  workerId?: string;
  /** Defaults come from `deps.config.worker`. */
  concurrency?: number;
  pollIntervalMs?: number;
  /** Idle polling while the wake-up hears other processes (PostgreSQL LISTEN). */
  idlePollIntervalMs?: number;
  leaseMs?: number;
  graceMs?: number;
  backoff?: BackoffPolicy;
  /** [0, 1); tests pass a fixed value to make backoff predictable. */
  random?: () => number;
  /** Defaults to `deps.jobs` when the deps carry a JobWakeup. */
  wakeup?: JobWakeup;
}

export interface Worker {
  readonly id: string;
  /** Starts the loop in the background. */
  start(): void;
  /** Stops claiming, waits for running jobs (up to the grace period), releases the rest. */
  stop(): Promise<void>;
  /** Claim now rather than at the next poll: a job was just committed. */
  notify(): void;
  /** One claim (abandoned jobs included) and wait for those jobs; for tests and scripts. */
  runOnce(): Promise<number>;
  /** The number of jobs running now. */
  readonly inFlight: number;
}

interface Running {
  job: ClaimedJob;
  abandoned: boolean;
  controller: AbortController;
  done: Promise<void>;
}

export function newWorkerId(): string {
  return `${os.hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

export function createWorker<D extends WorkerDeps>(
  deps: D,
  tasks: TaskDefinition<unknown, D>[],
  options: WorkerOptions = {},
): Worker {
  const settings = deps.config.worker;
  const id = options.workerId ?? newWorkerId();
  const concurrency = options.concurrency ?? settings.concurrency;
  const pollIntervalMs = options.pollIntervalMs ?? settings.pollIntervalMs;
  const idlePollIntervalMs = Math.max(
    pollIntervalMs,
    options.idlePollIntervalMs ?? settings.idlePollIntervalMs ?? pollIntervalMs,
  );
  const leaseMs = options.leaseMs ?? settings.leaseMs;
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS;
  const wakeup = options.wakeup ?? deps.jobs;
  const log = deps.log.child({ workerId: id });
  const runner: JobRunner<D> = {
    deps,
    tasks: new Map(tasks.map((t) => [t.task, t])),
    leaseMs,
    backoff: options.backoff ?? DEFAULT_BACKOFF,
    random: options.random ?? Math.random,
  };
  // Abandoned jobs are rare; looking for them once per lease period is soon enough.
  const reapEveryMs = Math.min(leaseMs, 60_000);
  const abortMarginMs = Math.min(5000, Math.floor(leaseMs / 10));
  const claimGapMs = Math.min(MIN_CLAIM_GAP_MS, pollIntervalMs);

  const running = new Set<Running>();
  let state: "idle" | "running" | "stopping" | "stopped" = "idle";
  let loopDone: Promise<void> = Promise.resolve();
  let stopped: Promise<void> | null = null;
  let unsubscribe = () => {};
  let nextReapAt = 0;
  /** True when the queue probably holds more due jobs than we could take. */
  let moreDue = false;
  const bell = doorbell();
  const turns = createTurnQueue();

  function launch(job: ClaimedJob, abandoned: boolean): Running {
    const controller = new AbortController();
    const leaseTimer = setTimeout(
      () => controller.abort(new LeaseExpiring(`the lease of job ${job.id} is about to expire`)),
      Math.max(0, leaseMs - abortMarginMs),
    );
    // Each job starts in a turn of its own: a claim of many must not hold up order requests.
    const work = new Promise<unknown>((resolve) => {
      turns.run(() =>
        resolve(
          abandoned ? giveUpAbandonedJob(runner, job) : runJob(runner, job, controller.signal),
        ),
      );
    });
    const entry: Running = {
      job,
      abandoned,
      controller,
      done: work.then(
        (result) => log.debug({ jobId: job.id, task: job.task, result }, "job settled"),
        // A settle that could not be written (database gone): the lease expiry recovers the job.
        (error) =>
          log.error({ err: error, jobId: job.id, task: job.task }, "job could not be settled"),
      ),
    };
    running.add(entry);
    void entry.done.finally(() => {
      clearTimeout(leaseTimer);
      running.delete(entry);
      if (moreDue) bell.ring();
    });
    return entry;
  }

  async function claimAndLaunch(
    forceReap: boolean,
  ): Promise<{ launched: Running[]; full: boolean }> {
    const launched: Running[] = [];
    const now = deps.clock.now();
    if (forceReap || now >= nextReapAt) {
      nextReapAt = now + reapEveryMs;
      const free = concurrency - running.size;
      const abandoned = await claimAbandonedJobs(deps.db, {
        workerId: id,
        limit: free,
        now,
        leaseMs,
      });
      for (const job of abandoned) launched.push(launch(job, true));
    }
    const free = concurrency - running.size;
    if (free <= 0) return { launched, full: true };
    const jobs = await claimJobs(deps.db, { workerId: id, limit: free, now, leaseMs });
    for (const job of jobs) launched.push(launch(job, false));
    return { launched, full: jobs.length === free };
  }

  async function loop(): Promise<void> {
    for (const task of runner.tasks.values()) {
      await task.onWorkerStart?.(deps).catch((error: unknown) => {
        log.error({ err: error, task: task.task }, "a task's start-up step failed");
      });
    }
    let lastClaimAt = Number.NEGATIVE_INFINITY;
    let claimFailing = false;
    while (state === "running") {
      const gapMs = lastClaimAt + claimGapMs - performance.now();
      if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
      if (state !== "running") break;
      lastClaimAt = performance.now();
      // Notifications carry the wake-ups while they arrive; polling is then only the fallback.
      let waitMs = wakeup?.listening ? idlePollIntervalMs : pollIntervalMs;
      try {
        const { full } = await claimAndLaunch(false);
        if (claimFailing) log.info("claiming jobs works again");
        claimFailing = false;
        moreDue = full;
        if (full && running.size < concurrency) continue;
      } catch (error) {
        // Once per outage at error level, not once a second while the database is away.
        if (claimFailing) log.debug({ err: error }, "claiming jobs failed");
        else log.error({ err: error }, "claiming jobs failed; trying again every second");
        claimFailing = true;
        waitMs = Math.max(pollIntervalMs, 1000);
      }
      if (state !== "running") break;
      await bell.wait(waitMs);
    }
  }

  async function shutdown(): Promise<void> {
    state = "stopping";
    unsubscribe();
    bell.ring();
    await loopDone;
    await settledWithin(running, graceMs);
    if (running.size > 0) {
      log.warn({ jobs: running.size, graceMs }, "jobs still running after the grace period");
      for (const r of running) r.controller.abort(new WorkerStopping("the worker is stopping"));
      await settledWithin(running, ABORT_SETTLE_MS);
    }
    for (const r of [...running]) {
      // An abandoned job's give-up is left leased: the next worker finds it and finishes it.
      if (r.abandoned) continue;
      await releaseJob(deps.db, leaseOf(r.job), deps.clock.now()).catch((error) =>
        log.error({ err: error, jobId: r.job.id }, "releasing a job failed"),
      );
    }
    state = "stopped";
    log.info("worker stopped");
  }

  function notify(): void {
    moreDue = true;
    bell.ring();
  }

  return {
    id,
    get inFlight() {
      return running.size;
    },
    start() {
      if (state !== "idle") throw new Error(`worker ${id} was already started`);
      state = "running";
      if (wakeup) unsubscribe = wakeup.subscribe(notify);
      log.info(
        { concurrency, pollIntervalMs, leaseMs, tasks: [...runner.tasks.keys()] },
        "worker started",
      );
      loopDone = ensurePeriodicJobs(deps.db, [...runner.tasks.values()], deps.clock.now())
        .catch((error) => log.error({ err: error }, "scheduling periodic jobs failed"))
        .then(loop);
    },
    stop() {
      if (state === "idle") state = "stopped";
      stopped ??= state === "stopped" ? Promise.resolve() : shutdown();
      return stopped;
    },
    notify,
    async runOnce() {
      const { launched } = await claimAndLaunch(true);
      await Promise.all(launched.map((r) => r.done));
      return launched.length;
    },
  };
}
