import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { openTestDeps, waitFor } from "../../../test/support/job-deps.js";
import { type RunningProcess, spawnVelvet } from "../../../test/support/spawn-worker.js";
import type { AppDeps } from "../../app-deps.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { closeDeps } from "../../main.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet worker (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    let velvet: RunningProcess | undefined;

    beforeEach(async () => {
      database = await engine.createMigrated();
      deps = await openTestDeps(database);
    });

    afterEach(async () => {
      if (velvet && velvet.child.exitCode === null && velvet.child.signalCode === null) {
        velvet.child.kill("SIGKILL");
      }
      await velvet?.exited;
      await closeDeps(deps);
      await database.drop();
    });

    it("works the queue without HTTP and exits 0 on SIGTERM", async () => {
      await enqueueJob(deps.db.kysely, { task: "no-such-task", payload: {} }, Date.now());
      velvet = spawnVelvet(["worker"], database.url, { WORKER_POLL_INTERVAL_MS: "50" });
      // A task the worker does not know is failed permanently: proof that it claimed and ran it.
      await waitFor(
        "the worker to settle the job",
        async () => {
          // (The worker's periodic jobs share the table.)
          const job = await deps.db.kysely
            .selectFrom("jobs")
            .selectAll()
            .where("task", "=", "no-such-task")
            .executeTakeFirst();
          return job?.last_error?.startsWith('unknown task "no-such-task"') === true;
        },
        20_000,
      );
      velvet.child.kill("SIGTERM");
      expect(await velvet.exited, velvet.stderr()).toEqual({ code: 0, signal: null });
      expect(velvet.stdout()).toBe("");
    });
  });
}
