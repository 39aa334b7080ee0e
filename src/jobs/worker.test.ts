import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ENGINES } from "../../test/support/databases.js";
import { type ManualClock, manualClock, waitFor } from "../../test/support/job-deps.js";
import { startTestDeps, type TestDeps } from "../../test/support/test-deps.js";
import type { AppDeps } from "../app-deps.js";
import { enqueueJob } from "./enqueue-job.js";
import { createJobWakeup } from "./job-wakeup.js";
import { DATABASE_WAIT_MS } from "./run-job.js";
import type { JobOutcome, TaskDefinition } from "./task.js";
import { createWorker, type Worker } from "./worker.js";

const Payload = z.object({ n: z.number() });
type Payload = z.infer<typeof Payload>;

/** A task whose handler and give-up are recorded; `outcome` decides each attempt. */
function recordingTask(
  outcome: (payload: Payload, attempt: number) => Promise<JobOutcome> | JobOutcome,
) {
  const runs: { n: number; attempt: number }[] = [];
  const gaveUp: { n: number; error: string }[] = [];
  const task: TaskDefinition<Payload> = {
    task: "test-task",
    payload: Payload,
    handle: async (_deps, payload, ctx) => {
      runs.push({ n: payload.n, attempt: ctx.attempt });
      return outcome(payload, ctx.attempt);
    },
    onGiveUp: async (_deps, payload, error) => {
      gaveUp.push({ n: payload.n, error });
    },
  };
  return { task, runs, gaveUp };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`job worker (${engine.name})`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    let clock: ManualClock;
    const workers: Worker[] = [];

    beforeEach(async () => {
      clock = manualClock();
      testDeps = await startTestDeps(engine, { clock });
      deps = testDeps.deps;
    });

    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await testDeps.close();
    });

    const worker = (
      tasks: TaskDefinition<Payload>[],
      options: Parameters<typeof createWorker>[2] = {},
    ) => {
      const w = createWorker(deps, tasks, { random: () => 0.5, ...options });
      workers.push(w);
      return w;
    };
    const enqueue = (
      n: number,
      extra: { task?: string; maxAttempts?: number; payload?: unknown } = {},
    ) =>
      enqueueJob(
        deps.db.kysely,
        {
          task: extra.task ?? "test-task",
          payload: extra.payload ?? { n },
          jobKey: `job-${n}`,
          maxAttempts: extra.maxAttempts,
        },
        clock.now(),
      );
    const row = (n: number) =>
      deps.db.kysely
        .selectFrom("jobs")
        .selectAll()
        .where("job_key", "=", `job-${n}`)
        .executeTakeFirst();

    it("runs a job once, right after notify(), and deletes it", async () => {
      const t = recordingTask(() => ({ kind: "done" }));
      const wakeup = createJobWakeup();
      const w = worker([t.task], { pollIntervalMs: 60_000, wakeup });
      w.start();
      await new Promise((resolve) => setTimeout(resolve, 150)); // the first (empty) poll is over
      await enqueue(1);
      const started = Date.now();
      wakeup.notify();
      await waitFor("the job to be deleted", async () => (await row(1)) === undefined, 5000, 5);
      expect(Date.now() - started).toBeLessThan(2000); // far below the 60 s poll
      await enqueue(2);
      w.notify();
      await waitFor("the second job", async () => (await row(2)) === undefined, 5000, 5);
      await testDeps.drain();
      expect(t.runs).toEqual([
        { n: 1, attempt: 1 },
        { n: 2, attempt: 1 },
      ]);
    });

    it("retries a failing job with exponential backoff, then gives up once", async () => {
      const t = recordingTask(() => {
        throw new Error("boom");
      });
      const w = worker([t.task], { backoff: { baseMs: 1000, maxMs: 60_000 } });
      const t0 = clock.now();
      await enqueue(1, { maxAttempts: 3 });

      expect(await w.runOnce()).toBe(1);
      expect(await row(1)).toMatchObject({
        attempts: 1,
        run_at: t0 + 500,
        last_error: "boom",
        locked_by: null,
      });
      expect(await w.runOnce()).toBe(0); // not due yet
      clock.advance(500);
      expect(await w.runOnce()).toBe(1);
      expect(await row(1)).toMatchObject({ attempts: 2, run_at: t0 + 500 + 1000 });
      clock.advance(999);
      expect(await w.runOnce()).toBe(0);
      clock.advance(1);
      expect(await w.runOnce()).toBe(1);
      expect(await row(1)).toMatchObject({
        attempts: 3,
        last_error: "boom",
        locked_by: null,
        locked_until: null,
      });
      clock.advance(3_600_000);
      expect(await w.runOnce()).toBe(0); // permanently failed: never claimed again
      expect(t.runs.map((r) => r.attempt)).toEqual([1, 2, 3]);
      expect(t.gaveUp).toEqual([{ n: 1, error: "boom" }]);
    });

    it("honours the delay a retry names, and revives a failed job when its key is enqueued again", async () => {
      const t = recordingTask((_p, attempt) =>
        attempt === 1
          ? { kind: "retry", error: "429", delayMs: 7000 }
          : { kind: "fail", error: "gone" },
      );
      const w = worker([t.task]);
      const t0 = clock.now();
      await enqueue(1, { maxAttempts: 5 });
      await w.runOnce();
      expect(await row(1)).toMatchObject({ run_at: t0 + 7000, last_error: "429", attempts: 1 });
      clock.advance(6999);
      expect(await w.runOnce()).toBe(0);
      clock.advance(1);
      expect(await w.runOnce()).toBe(1);
      // `fail` ends it at once, attempts left or not.
      expect(await row(1)).toMatchObject({ attempts: 5, last_error: "gone", locked_by: null });
      expect(t.gaveUp).toEqual([{ n: 1, error: "gone" }]);

      await enqueue(1, { maxAttempts: 5 });
      expect(await row(1)).toMatchObject({ attempts: 0, last_error: null });
      expect(await w.runOnce()).toBe(1);
      expect(t.runs).toHaveLength(3);
    });

    it("does not count an attempt whose handler lost the database: it waits and runs again", async () => {
      const lost = Object.assign(new Error("terminating connection due to administrator command"), {
        code: "57P01",
      });
      const t = recordingTask((_p, attempt) => {
        if (attempt === 1 && t.runs.length === 1) throw lost;
        return { kind: "done" };
      });
      const w = worker([t.task]);
      const t0 = clock.now();
      await enqueue(1, { maxAttempts: 1 });
      await w.runOnce();
      expect(await row(1)).toMatchObject({
        attempts: 0,
        run_at: t0 + DATABASE_WAIT_MS,
        last_error: "database unavailable: terminating connection due to administrator command",
      });
      expect(t.gaveUp).toEqual([]);
      clock.advance(DATABASE_WAIT_MS);
      expect(await w.runOnce()).toBe(1);
      expect(t.runs).toEqual([
        { n: 1, attempt: 1 },
        { n: 1, attempt: 1 },
      ]);
      expect(await row(1)).toBeUndefined();
    });

    it("fails a malformed payload and an unknown task permanently, without running anything", async () => {
      const t = recordingTask(() => ({ kind: "done" }));
      const w = worker([t.task]);
      await enqueue(1, { payload: { n: "one" } });
      await enqueue(2, { task: "no-such-task" });
      await enqueue(3);
      await deps.db.kysely
        .updateTable("jobs")
        .set({ payload: "{not json" })
        .where("job_key", "=", "job-3")
        .execute();

      expect(await w.runOnce()).toBe(3);
      expect(await row(1)).toMatchObject({ attempts: 3, locked_by: null });
      expect((await row(1))?.last_error).toMatch(/^invalid payload for task "test-task": n: /);
      expect(await row(2)).toMatchObject({
        attempts: 3,
        locked_by: null,
        last_error:
          'unknown task "no-such-task": no task of that name is registered in this worker',
      });
      expect((await row(3))?.last_error).toBe('invalid payload for task "test-task": not JSON');
      clock.advance(3_600_000);
      expect(await w.runOnce()).toBe(0);
      expect(t.runs).toEqual([]);
      expect(t.gaveUp).toEqual([]);
    });

    it("runs many jobs in parallel, never more than the concurrency limit", async () => {
      let inFlight = 0;
      let peak = 0;
      const t = recordingTask(async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 60));
        inFlight--;
        return { kind: "done" };
      });
      for (let n = 0; n < 24; n++) await enqueue(n);
      const w = worker([t.task], { concurrency: 6, pollIntervalMs: 20 });
      w.start();
      await waitFor("all jobs to finish", async () => {
        const left = await deps.db.kysely.selectFrom("jobs").select("id").execute();
        return left.length === 0;
      });
      expect(peak).toBe(6);
      expect(t.runs).toHaveLength(24);
      expect(new Set(t.runs.map((r) => r.n)).size).toBe(24);
    });
  });
}
