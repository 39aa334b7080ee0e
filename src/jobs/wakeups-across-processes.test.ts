/**
 * Wake-ups across processes on PostgreSQL (pg-wakeups.ts): a real `velvet worker` polling only
 * every 30 s starts a job that this process enqueued (and rang for, as every enqueuer does after
 * its commit) within a few seconds, and again after its LISTEN connection was killed.
 */
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { postgresEngine, type TestDatabase } from "../../test/support/databases.js";
import { openTestDeps, waitFor } from "../../test/support/job-deps.js";
import { type RunningProcess, spawnVelvet } from "../../test/support/spawn-worker.js";
import type { AppDeps } from "../app-deps.js";
import { closeDeps } from "../main.js";
import { enqueueJob } from "./enqueue-job.js";

/** Far above the waits below: a job found in time was found by a wake-up, not by a poll. */
const POLL_MS = "30000";
const WAKE_WITHIN_MS = 5000;

describe.skipIf(!postgresEngine.available)("job wake-ups across processes (postgres)", () => {
  let database: TestDatabase;
  let deps: AppDeps;
  let worker: RunningProcess | undefined;

  beforeEach(async () => {
    database = await postgresEngine.createMigrated();
    deps = await openTestDeps(database);
  });

  afterEach(async () => {
    if (worker && worker.child.exitCode === null && worker.child.signalCode === null) {
      worker.child.kill("SIGKILL");
    }
    await worker?.exited;
    await closeDeps(deps);
    await database.drop();
  });

  /** The worker's LISTEN backends on this database. */
  const listeners = async () =>
    (
      await sql<{ pid: number }>`select pid from pg_stat_activity
        where datname = current_database() and application_name = 'velvet-wakeups'
          and query ilike 'listen%'`.execute(deps.db.kysely)
    ).rows.map((r) => r.pid);

  /** Enqueued and rung as any enqueuer does: commit, then notify. */
  const enqueueAndRing = async (key: string) => {
    await enqueueJob(
      deps.db.kysely,
      { task: "no-such-task", payload: {}, jobKey: key },
      Date.now(),
    );
    deps.jobs.notify();
    return performance.now();
  };
  // A task the worker does not know is failed permanently: proof that it claimed and ran it.
  const ran = async (key: string) => {
    const job = await deps.db.kysely
      .selectFrom("jobs")
      .select("last_error")
      .where("job_key", "=", key)
      .executeTakeFirst();
    return job?.last_error?.startsWith('unknown task "no-such-task"') === true;
  };

  it("starts a job enqueued by another process at once, and again after its listener's connection is killed", async () => {
    worker = spawnVelvet(["worker"], database.url, { WORKER_POLL_INTERVAL_MS: POLL_MS });
    await waitFor("the worker to listen", async () => (await listeners()).length === 1, 20_000);
    // Its first claim (at start) is behind it once it listens; this job is news to it.
    const t1 = await enqueueAndRing("first");
    await waitFor("the first job to run", () => ran("first"), WAKE_WITHIN_MS);
    const firstMs = performance.now() - t1;

    const [pid] = await listeners();
    await sql`select pg_terminate_backend(${pid})`.execute(deps.db.kysely);
    await waitFor(
      "the worker to listen again",
      async () => {
        const now = await listeners();
        return now.length === 1 && now[0] !== pid;
      },
      20_000,
    );
    const t2 = await enqueueAndRing("second");
    await waitFor("the second job to run", () => ran("second"), WAKE_WITHIN_MS);
    const secondMs = performance.now() - t2;
    console.info(`wake-up to settled job: ${firstMs.toFixed(0)} ms, ${secondMs.toFixed(0)} ms`);
    expect(worker.child.exitCode).toBeNull();
  });
});
