import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ENGINES } from "../../test/support/databases.js";
import { type ManualClock, manualClock, waitFor } from "../../test/support/job-deps.js";
import { startTestDeps, type TestDeps } from "../../test/support/test-deps.js";
import type { AppDeps } from "../app-deps.js";
import { claimJobs } from "./claim-jobs.js";
import { enqueueJob } from "./enqueue-job.js";
import { LeaseExpiring, WorkerStopping } from "./run-job.js";
import type { JobContext, JobOutcome, TaskDefinition } from "./task.js";
import { createWorker } from "./worker.js";

const Empty = z.object({});
type Empty = z.infer<typeof Empty>;

function task(handle: (ctx: JobContext) => Promise<JobOutcome>) {
  const gaveUp: string[] = [];
  const definition: TaskDefinition<Empty> = {
    task: "t",
    payload: Empty,
    handle: (_deps, _payload, ctx) => handle(ctx),
    onGiveUp: async (_deps, _payload, error) => {
      gaveUp.push(error);
    },
  };
  return { definition, gaveUp };
}

/** Resolves when the signal aborts, with its reason. */
function aborted(signal: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(signal.reason)));
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`stopping and leases (${engine.name})`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    let clock: ManualClock;

    beforeEach(async () => {
      clock = manualClock();
      testDeps = await startTestDeps(engine, { clock });
      deps = testDeps.deps;
      await enqueueJob(deps.db.kysely, { task: "t", payload: {}, jobKey: "job" }, clock.now());
    });

    afterEach(async () => {
      await testDeps.close();
    });

    const job = () => deps.db.kysely.selectFrom("jobs").selectAll().executeTakeFirst();

    it("lets a running job finish within the grace period", async () => {
      let finished = false;
      const t = task(async () => {
        await sleep(300);
        finished = true;
        return { kind: "done" };
      });
      const w = createWorker(deps, [t.definition], { pollIntervalMs: 10, graceMs: 5000 });
      w.start();
      await waitFor("the job to start", () => w.inFlight === 1);
      await w.stop();
      expect(finished).toBe(true);
      expect(await job()).toBeUndefined();
    });

    it("aborts a job still running after the grace period and releases it without counting the attempt", async () => {
      let reason: unknown;
      const t = task(async (ctx) => {
        reason = await aborted(ctx.signal);
        throw new Error("aborted");
      });
      const w = createWorker(deps, [t.definition], { pollIntervalMs: 10, graceMs: 100 });
      w.start();
      await waitFor("the job to start", () => w.inFlight === 1);
      expect(await job()).toMatchObject({ attempts: 1, locked_by: w.id });
      await w.stop();
      expect(reason).toBeInstanceOf(WorkerStopping);
      expect(await job()).toMatchObject({
        attempts: 0,
        locked_by: null,
        locked_until: null,
        run_at: clock.now(),
        last_error: null,
      });
      expect(t.gaveUp).toEqual([]);
    });

    it("releases a job whose handler ignores the abort, and that handler's late done deletes nothing", async () => {
      let late: "pending" | "returned" = "pending";
      // The handler returns only when the test lets it, after the worker has stopped.
      let letReturn = () => {};
      const mayReturn = new Promise<void>((resolve) => {
        letReturn = resolve;
      });
      const t = task(async () => {
        await mayReturn;
        late = "returned";
        return { kind: "done" };
      });
      // The worker's debug lines tell when the late "done" has been settled (as lost).
      const lines: Array<{ msg?: string; result?: string }> = [];
      const log = pino(
        { level: "debug" },
        { write: (line: string) => lines.push(JSON.parse(line)) },
      );
      const w = createWorker({ ...deps, log }, [t.definition], { pollIntervalMs: 10, graceMs: 50 });
      w.start();
      await waitFor("the job to start", () => w.inFlight === 1);
      await w.stop();
      // stop() did not wait for the handler that ignores the abort.
      expect(late).toBe("pending");
      expect(await job()).toMatchObject({ attempts: 0, locked_by: null });
      letReturn();
      await waitFor("the ignored handler to return", () => late === "returned");
      await waitFor("its late done to be settled", () =>
        lines.some((l) => l.msg === "job settled" && l.result === "lost"),
      );
      expect(await job()).toMatchObject({ attempts: 0, locked_by: null });
    });

    it("aborts the signal shortly before the lease runs out", async () => {
      let reason: unknown;
      let after = 0;
      const t = task(async (ctx) => {
        const started = Date.now();
        reason = await aborted(ctx.signal);
        after = Date.now() - started;
        return { kind: "retry", error: "took too long" };
      });
      const w = createWorker(deps, [t.definition], { leaseMs: 1000 });
      await w.runOnce();
      expect(reason).toBeInstanceOf(LeaseExpiring);
      expect(after).toBeGreaterThanOrEqual(850);
      expect(after).toBeLessThan(1000);
      expect(await job()).toMatchObject({
        attempts: 1,
        locked_by: null,
        last_error: "took too long",
      });
    });

    it("gives up a job whose last attempt's worker died, calling onGiveUp once", async () => {
      const t = task(async () => ({ kind: "done" }));
      await deps.db.kysely.updateTable("jobs").set({ attempts: 2 }).execute(); // 3 allowed
      await claimJobs(deps.db, {
        workerId: "dead-worker",
        limit: 1,
        now: clock.now(),
        leaseMs: 5000,
      });
      const w = createWorker(deps, [t.definition], { leaseMs: 5000 });
      expect(await w.runOnce()).toBe(0);
      clock.advance(5001);
      expect(await w.runOnce()).toBe(1);
      const error = "attempt 3 of 3 did not finish: its worker stopped and the lease expired";
      expect(t.gaveUp).toEqual([error]);
      expect(await job()).toMatchObject({
        attempts: 3,
        locked_by: null,
        locked_until: null,
        last_error: error,
      });
      clock.advance(60_000);
      expect(await w.runOnce()).toBe(0);
      expect(t.gaveUp).toHaveLength(1);
    });

    it("keeps a job given up only once when onGiveUp itself fails", async () => {
      const calls: string[] = [];
      const definition: TaskDefinition<Empty> = {
        task: "t",
        payload: Empty,
        handle: async () => ({ kind: "fail", error: "no such customer" }),
        onGiveUp: async (_deps, _payload, error) => {
          calls.push(error);
          throw new Error("database hiccup");
        },
      };
      const w = createWorker(deps, [definition]);
      expect(await w.runOnce()).toBe(1);
      clock.advance(3_600_000);
      expect(await w.runOnce()).toBe(0);
      expect(calls).toEqual(["no such customer"]);
      expect(await job()).toMatchObject({
        attempts: 3,
        locked_by: null,
        last_error: "no such customer",
      });
    });
  });
}
