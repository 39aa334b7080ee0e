/**
 * The one way a test gets Velvet's dependencies: a fresh database of the given engine, migrated
 * (a copy of the run's template; buildDeps finds nothing left to apply), a silent logger, the clock the test passes, and, when asked,
 * the job loop running every task `velvet serve` runs (or the tasks given). `drain()` waits until
 * the queue has nothing due or running, so a test asserts "nothing (more) happened" after the
 * queue is empty instead of after sleeping. `close()` stops the loop, closes and drops the
 * database.
 */
import { sql } from "kysely";
import type { AppDeps } from "../../src/app-deps.js";
import type { TaskDefinition } from "../../src/jobs/task.js";
import { createWorker, type Worker, type WorkerOptions } from "../../src/jobs/worker.js";
import { closeDeps } from "../../src/main.js";
import { allTasks } from "../../src/tasks.js";
import type { Engine, TestDatabase } from "./databases.js";
import { type OpenTestDepsOptions, openTestDeps, waitFor } from "./job-deps.js";

export interface TestDepsOptions extends OpenTestDepsOptions {
  /**
   * Start a job loop: `true` runs every task `velvet serve` runs (tasks.ts), a list runs those
   * tasks only. Off by default.
   */
  worker?: boolean | TaskDefinition<unknown, AppDeps>[];
  workerOptions?: WorkerOptions;
}

export interface TestDeps {
  deps: AppDeps;
  database: TestDatabase;
  /** The running job loop, when `worker` was asked for. */
  worker: Worker | null;
  /** Waits until no job is due or running (the queue is drained); periodic jobs not yet due stay. */
  drain(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startTestDeps(
  engine: Engine,
  options: TestDepsOptions = {},
): Promise<TestDeps> {
  const database = await engine.createMigrated();
  const deps = await openTestDeps(database, options);
  const tasks = options.worker === true ? allTasks(deps) : options.worker ? options.worker : null;
  const worker = tasks === null ? null : createWorker(deps, tasks, options.workerOptions);
  worker?.start();
  return {
    deps,
    database,
    worker,
    drain: (timeoutMs) => drainQueue(deps, timeoutMs),
    close: async () => {
      await worker?.stop();
      await closeDeps(deps);
      await database.drop();
    },
  };
}

/** True once no job is due now (by the deps' clock) or held by a worker. */
export async function queueIsDrained(deps: Pick<AppDeps, "db" | "clock">): Promise<boolean> {
  const now = deps.clock.now();
  const row = await deps.db.kysely
    .selectFrom("jobs")
    .select(sql<number>`count(*)`.as("n"))
    .where((eb) =>
      eb.or([
        eb("locked_by", "is not", null),
        eb.and([eb("run_at", "<=", now), eb("attempts", "<", eb.ref("max_attempts"))]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n) === 0;
}

export function drainQueue(deps: Pick<AppDeps, "db" | "clock">, timeoutMs = 10_000) {
  return waitFor("the job queue to drain", () => queueIsDrained(deps), timeoutMs);
}
