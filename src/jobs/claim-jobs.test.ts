import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { ENGINES } from "../../test/support/databases.js";
import {
  type ManualClock,
  manualClock,
  openTestDeps,
  waitFor,
} from "../../test/support/job-deps.js";
import { pgbouncerEngine } from "../../test/support/pgbouncer.js";
import { startTestDeps, type TestDeps } from "../../test/support/test-deps.js";
import type { AppDeps } from "../app-deps.js";
import { closeDeps } from "../main.js";
import { claimJobs } from "./claim-jobs.js";
import { enqueueJob } from "./enqueue-job.js";
import { deleteJob, leaseOf } from "./settle-job.js";
import type { TaskDefinition } from "./task.js";
import { createWorker, type Worker } from "./worker.js";

const LEASE_MS = 30_000;

// Also through PgBouncer in transaction mode (test/pgbouncer.test.ts says why these files).
for (const engine of [...ENGINES, pgbouncerEngine]) {
  describe.skipIf(!engine.available)(`claiming jobs (${engine.name})`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    let clock: ManualClock;

    beforeEach(async () => {
      clock = manualClock();
      testDeps = await startTestDeps(engine, { clock });
      deps = testDeps.deps;
    });

    afterEach(async () => {
      await testDeps.close();
    });

    const enqueue = (key: string, runAt?: number) =>
      enqueueJob(deps.db.kysely, { task: "t", payload: {}, jobKey: key, runAt }, clock.now());
    const claim = (workerId: string, limit = 10) =>
      claimJobs(deps.db, { workerId, limit, now: clock.now(), leaseMs: LEASE_MS });

    it("claims due jobs oldest first, up to the limit, with a lease and a counted attempt", async () => {
      const t0 = clock.now();
      await enqueue("later", t0 + 1);
      await enqueue("b", t0 - 10);
      await enqueue("a", t0 - 20);
      await enqueue("c", t0);
      const first = await claim("w1", 2);
      // The two due longest (handed back in creation order, which here is the same millisecond).
      expect(first.map((j) => j.job_key).sort()).toEqual(["a", "b"]);
      // Under the lease a job is not due: run_at moves to the lease's end.
      const lease = { locked_by: "w1", locked_until: t0 + LEASE_MS, run_at: t0 + LEASE_MS };
      expect(first[0]).toMatchObject({ ...lease, attempts: 1 });
      expect((await claim("w2")).map((j) => j.job_key)).toEqual(["c"]);
      expect(await claim("w3")).toEqual([]);
    });

    it("claims every due live job before any backfill job, however much older the backfill is", async () => {
      const t0 = clock.now();
      const put = (key: string, priority: number, runAt: number) =>
        enqueueJob(deps.db.kysely, { task: "t", payload: {}, jobKey: key, runAt, priority }, t0);
      await put("backfill-old", 1, t0 - 60_000);
      await put("backfill-older", 1, t0 - 120_000);
      await put("live-new", 0, t0);
      await put("live-later", 0, t0 + 1); // not due: does not hold the backfill back
      await put("live-old", 0, t0 - 10);
      // Both due live jobs, then the oldest backfill; live ones are handed back first.
      const first = (await claim("w1", 3)).map((j) => j.job_key);
      expect([...first.slice(0, 2)].sort()).toEqual(["live-new", "live-old"]);
      expect(first[2]).toBe("backfill-older");
      expect((await claim("w1", 3)).map((j) => j.job_key)).toEqual(["backfill-old"]);
      clock.advance(1);
      expect((await claim("w1", 3)).map((j) => j.job_key)).toEqual(["live-later"]);
    });

    it("gives a job whose worker died to another worker once the lease expires; the dead worker's late done changes nothing", async () => {
      await enqueue("job");
      const [dead] = await claim("dead-worker");
      expect(dead).toBeDefined();
      if (dead === undefined) return;

      clock.advance(LEASE_MS); // locked_until is not yet in the past
      expect(await claim("w2")).toEqual([]);
      clock.advance(1);
      const [again] = await claim("w2");
      expect(again).toMatchObject({ id: dead.id, locked_by: "w2", attempts: 2 });
      if (again === undefined) return;

      expect(await deleteJob(deps.db, leaseOf(dead))).toBe(false);
      expect(await deps.db.kysely.selectFrom("jobs").select("locked_by").execute()).toEqual([
        { locked_by: "w2" },
      ]);
      expect(await deleteJob(deps.db, leaseOf(again))).toBe(true);
      expect(await deps.db.kysely.selectFrom("jobs").select("id").execute()).toEqual([]);
    });

    it("tells a worker's stale lease from its own later claim of the same job", async () => {
      await enqueue("job");
      const [first] = await claim("w1");
      clock.advance(LEASE_MS + 1);
      const [second] = await claim("w1");
      expect(second?.attempts).toBe(2);
      if (first === undefined || second === undefined) return;
      expect(await deleteJob(deps.db, leaseOf(first))).toBe(false);
      expect(await deleteJob(deps.db, leaseOf(second))).toBe(true);
    });

    it("runs a job held by a dead worker again in a live worker after the lease", async () => {
      const runs: number[] = [];
      const task: TaskDefinition<Record<string, never>> = {
        task: "t",
        payload: z.object({}).strict() as z.ZodType<Record<string, never>>,
        handle: async (_deps, _payload, ctx) => {
          runs.push(ctx.attempt);
          return { kind: "done" };
        },
      };
      await enqueue("job");
      await claim("dead-worker");
      const w = createWorker(deps, [task], { leaseMs: LEASE_MS });
      expect(await w.runOnce()).toBe(0);
      clock.advance(LEASE_MS + 1);
      expect(await w.runOnce()).toBe(1);
      expect(runs).toEqual([2]);
      expect(await deps.db.kysely.selectFrom("jobs").select("id").execute()).toEqual([]);
    });
  });

  // Two processes' worth of workers (separate connection pools) over one database. Not on
  // SQLite: two better-sqlite3 connections in one process deadlock on the write lock (the busy
  // wait is synchronous and blocks the holder's commit); across processes BEGIN IMMEDIATE
  // serialises claims, which worker-process.test.ts exercises.
  if (engine.dialect !== "postgres") continue;
  describe.skipIf(!engine.available)(`two workers racing (${engine.name})`, () => {
    it("runs every one of 200 jobs exactly once and never on both workers at the same time", async () => {
      const database = await engine.createMigrated();
      const a = await openTestDeps(database);
      const b = await openTestDeps(database);
      const running = new Set<string>();
      const runs = new Map<string, number>();
      const byWorker = new Map<string, number>();
      const overlaps: string[] = [];
      const task = (name: string): TaskDefinition<{ i: number }> => ({
        task: "race",
        payload: z.object({ i: z.number() }),
        handle: async (_deps, _payload, ctx) => {
          if (running.has(ctx.jobId)) overlaps.push(ctx.jobId);
          running.add(ctx.jobId);
          runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
          byWorker.set(name, (byWorker.get(name) ?? 0) + 1);
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
          running.delete(ctx.jobId);
          return { kind: "done" };
        },
      });
      const workers: Worker[] = [];
      try {
        await a.db.kysely.transaction().execute(async (trx) => {
          for (let i = 0; i < 200; i++) {
            await enqueueJob(trx, { task: "race", payload: { i } }, a.clock.now());
          }
        });
        workers.push(
          createWorker(a, [task("a")], { concurrency: 8, pollIntervalMs: 10 }),
          createWorker(b, [task("b")], { concurrency: 8, pollIntervalMs: 10 }),
        );
        for (const w of workers) w.start();
        await waitFor(
          "all 200 jobs to finish",
          async () => (await a.db.kysely.selectFrom("jobs").select("id").execute()).length === 0,
          20_000,
        );
        await Promise.all(workers.map((w) => w.stop()));
        expect(overlaps).toEqual([]);
        expect(runs.size).toBe(200);
        expect([...runs.values()].every((n) => n === 1)).toBe(true);
        // Both took part, or the race was not a race.
        expect(byWorker.get("a") ?? 0).toBeGreaterThan(0);
        expect(byWorker.get("b") ?? 0).toBeGreaterThan(0);
      } finally {
        await Promise.all(workers.map((w) => w.stop()));
        await closeDeps(a);
        await closeDeps(b);
        await database.drop();
      }
    });
  });
}
