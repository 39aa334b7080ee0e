/**
 * Fair queues (fair-tag.ts) on both engines: one account's 20,000 queued backfill jobs do not
 * hold back another account's 100 queued after them; live work still goes first; a job that
 * backs off after a failure is claimed by its run_at, not stuck behind a backlog's tags.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../test/support/databases.js";
import { type ManualClock, manualClock } from "../../test/support/job-deps.js";
import { startTestDeps, type TestDeps } from "../../test/support/test-deps.js";
import type { AppDeps } from "../app-deps.js";
import { type ClaimedJob, claimJobs, JOB_PRIORITIES } from "./claim-jobs.js";
import { enqueueJob, type JobSpec } from "./enqueue-job.js";
import { deleteJob, leaseOf, rescheduleJob } from "./settle-job.js";

const LEASE_MS = 30_000;
const BACKLOG = 20_000;
const CLAIM = 25;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`fair queues (${engine.name})`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    let clock: ManualClock;

    beforeAll(async () => {
      clock = manualClock();
      testDeps = await startTestDeps(engine, { clock });
      deps = testDeps.deps;
    });
    afterAll(async () => {
      await testDeps?.close();
    });

    const job = (queueKey: string, key: string, priority: number): JobSpec => ({
      task: "t",
      payload: {},
      jobKey: key,
      queueKey,
      priority,
    });
    const enqueueMany = (specs: JobSpec[]) =>
      deps.db.kysely.transaction().execute(async (trx) => {
        for (const spec of specs) await enqueueJob(trx, spec, clock.now());
      });
    const claim = (limit = CLAIM) =>
      claimJobs(deps.db, { workerId: "w", limit, now: clock.now(), leaseMs: LEASE_MS });
    const finish = async (jobs: ClaimedJob[]) => {
      for (const j of jobs) await deleteJob(deps.db, leaseOf(j));
    };
    const backfill = JOB_PRIORITIES.backfill;

    it("claims another account's 100 backfill jobs within the first few hundred claims after a 20,000-job backlog", async () => {
      const a = Array.from({ length: BACKLOG }, (_, i) => job("acct-a", `a${i}`, backfill));
      for (let i = 0; i < a.length; i += 2000) await enqueueMany(a.slice(i, i + 2000));
      // A's backlog is being worked through when B's import arrives.
      await finish(await claim(100));
      await enqueueMany(Array.from({ length: 100 }, (_, i) => job("acct-b", `b${i}`, backfill)));

      let claimed = 0;
      let bClaimed = 0;
      const firstRound: string[] = [];
      while (bClaimed < 100 && claimed < BACKLOG) {
        const jobs = await claim();
        if (firstRound.length === 0) firstRound.push(...jobs.map((j) => j.queue_key));
        claimed += jobs.length;
        bClaimed += jobs.filter((j) => j.queue_key === "acct-b").length;
        await finish(jobs);
      }
      // Turns alternate: B's 100 go out with about as many of A's.
      expect(bClaimed).toBe(100);
      expect(claimed).toBeLessThanOrEqual(250);
      expect(firstRound.filter((k) => k === "acct-b").length).toBeGreaterThanOrEqual(12);
    });

    it("still claims live work before any backfill, and an untagged due job before tagged ones", async () => {
      await enqueueMany([job("acct-c", "live-1", JOB_PRIORITIES.live)]);
      const [first] = await claim(1);
      expect(first?.job_key).toBe("live-1");
      // A failed attempt backs off (no tag); once due again it goes before the backlog.
      expect(first?.fair_tag).toBeNull();
      if (first === undefined) return;
      await rescheduleJob(deps.db, leaseOf(first), {
        runAt: clock.now() + 1000,
        error: "boom",
        now: clock.now(),
      });
      expect((await claim(1))[0]?.queue_key).toBe("acct-a");
      clock.advance(1000);
      expect((await claim(1))[0]?.job_key).toBe("live-1");
    });
  });
}
