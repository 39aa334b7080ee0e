/**
 * Real worker processes: killed with SIGKILL mid-job (the job runs again after the lease, and
 * completes once) and stopped with SIGTERM (the job finishes, or is released, and the process
 * exits 0).
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../test/support/databases.js";
import { openTestDeps, waitFor } from "../../test/support/job-deps.js";
import {
  createJobRunsTable,
  jobRuns,
  RECORDING_TASK,
  recordingTask,
} from "../../test/support/recording-task.js";
import { spawnWorker, type WorkerProcess } from "../../test/support/spawn-worker.js";
import { drainQueue } from "../../test/support/test-deps.js";
import type { AppDeps } from "../app-deps.js";
import { closeDeps } from "../main.js";
import { enqueueJob } from "./enqueue-job.js";
import { createWorker, type Worker } from "./worker.js";

const LEASE_MS = 2000;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`worker processes (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    const children: WorkerProcess[] = [];
    const workers: Worker[] = [];

    beforeEach(async () => {
      database = await engine.createMigrated();
      deps = await openTestDeps(database);
      await createJobRunsTable(deps.db.kysely);
    });

    afterEach(async () => {
      for (const c of children.splice(0)) {
        if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
        await c.exited;
      }
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await closeDeps(deps);
      await database.drop();
    });

    const enqueue = (sleepMs: number) =>
      enqueueJob(deps.db.kysely, { task: RECORDING_TASK, payload: { sleepMs } }, Date.now());
    const start = (args: string[] = []) => {
      const c = spawnWorker(
        database.url,
        { JOB_LEASE_MS: String(LEASE_MS), WORKER_POLL_INTERVAL_MS: "50" },
        args,
      );
      children.push(c);
      return c;
    };
    const started = async () => (await jobRuns(deps.db.kysely)).some((r) => r.event === "start");
    const jobRow = () => deps.db.kysely.selectFrom("jobs").selectAll().executeTakeFirst();

    it("runs a job again after the lease when its worker is killed mid-job, and completes it once", async () => {
      await enqueue(1500);
      const doomed = start();
      await waitFor("the child to start the job", started, 20_000);
      const held = await jobRow();
      expect(held).toMatchObject({ attempts: 1, locked_by: expect.stringContaining(":") });
      doomed.child.kill("SIGKILL");
      expect((await doomed.exited).signal).toBe("SIGKILL");

      const survivor = createWorker(deps, [recordingTask], {
        pollIntervalMs: 50,
        leaseMs: LEASE_MS,
      });
      workers.push(survivor);
      survivor.start();
      await waitFor("the job to complete", async () => (await jobRow()) === undefined, 20_000);
      // The job row is gone: no worker can start it again, so its runs are all recorded.
      await drainQueue(deps);

      const runs = await jobRuns(deps.db.kysely);
      const starts = runs.filter((r) => r.event === "start");
      const dones = runs.filter((r) => r.event === "done");
      expect(starts.map((r) => r.pid)).toEqual([doomed.child.pid, process.pid]);
      expect(dones.map((r) => r.pid)).toEqual([process.pid]);
      // Not before the dead worker's lease had expired.
      expect(starts[1]?.at).toBeGreaterThan(held?.locked_until ?? Number.POSITIVE_INFINITY);
    });

    it("finishes the running job on SIGTERM and exits 0", async () => {
      await enqueue(1000);
      const c = start();
      await waitFor("the child to start the job", started, 20_000);
      c.child.kill("SIGTERM");
      const exit = await c.exited;
      expect(exit, c.stderr()).toEqual({ code: 0, signal: null });
      expect((await jobRuns(deps.db.kysely)).map((r) => r.event)).toEqual(["start", "done"]);
      expect(await jobRow()).toBeUndefined();
    });

    it("releases a job that outlasts the grace period on SIGTERM and exits 0", async () => {
      await enqueue(30_000);
      const c = start(["--grace-ms", "100"]);
      await waitFor("the child to start the job", started, 20_000);
      const sent = Date.now();
      c.child.kill("SIGTERM");
      const exit = await c.exited;
      expect(exit, c.stderr()).toEqual({ code: 0, signal: null });
      expect(Date.now() - sent).toBeLessThan(5000);
      expect((await jobRuns(deps.db.kysely)).map((r) => r.event)).toEqual(["start"]);
      expect(await jobRow()).toMatchObject({ attempts: 0, locked_by: null, locked_until: null });
    });
  });
}
