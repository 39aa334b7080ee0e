/**
 * The order path's enrichment jobs take fair turns (jobs/fair-tag.ts), on both engines and, on
 * PostgreSQL, through the batched submission statement: an account's imported orders queue
 * their backfill jobs under the account, and another account's import a moment later is not
 * queued behind them; a live order's job goes before both.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { AppDeps } from "../../app-deps.js";
import { claimJobs } from "../../jobs/claim-jobs.js";
import { deleteJob, leaseOf } from "../../jobs/settle-job.js";
import { createAccount } from "../accounts/create-account.js";
import { submitOrder } from "./submit-order.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`orders take fair turns in the queue (${engine.name})`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;

    beforeAll(async () => {
      testDeps = await startTestDeps(engine);
      deps = testDeps.deps;
    });
    afterAll(async () => {
      await testDeps?.close();
    });

    const account = (name: string) =>
      createAccount(
        deps.db.kysely,
        { name, ownerEmail: `${name}@example.com`, passwordHash: null },
        deps.clock.now(),
      );
    const submission = (email: string) => ({
      email,
      firstName: "Jane",
      lastName: "Doe",
      phone: null,
      address: null,
      order: null,
    });
    /** Submitted together, as an import's batch is (batched into one statement on PostgreSQL). */
    const importRows = async (
      store: Awaited<ReturnType<typeof account>>,
      prefix: string,
      n: number,
    ) => {
      for (let i = 0; i < n; i += 100) {
        const batch = Array.from({ length: Math.min(100, n - i) }, (_, j) =>
          submitOrder(deps, store, submission(`${prefix}-${i + j}@acme.com`), {
            priority: "backfill",
            alerts: false,
          }),
        );
        await Promise.all(batch);
      }
    };

    it("claims a second account's import alongside the first's backlog, and a live order first", async () => {
      const a = await account("fair-a");
      const b = await account("fair-b");
      await importRows(a, "a", 400);
      await importRows(b, "b", 20);
      await submitOrder(deps, b, submission("live@acme.com"));

      const claimOrder: string[] = [];
      let bClaimed = 0;
      while (bClaimed < 20 && claimOrder.length < 420) {
        const jobs = await claimJobs(deps.db, {
          workerId: "w",
          limit: 10,
          now: deps.clock.now(),
          leaseMs: 60_000,
        });
        if (jobs.length === 0) break;
        for (const job of jobs) {
          claimOrder.push(job.priority === 0 ? "live" : job.queue_key);
          await deleteJob(deps.db, leaseOf(job));
        }
        bClaimed += jobs.filter((j) => j.priority !== 0 && j.queue_key === b.accountId).length;
      }
      expect(claimOrder[0]).toBe("live");
      expect(new Set(claimOrder.slice(1))).toEqual(new Set([a.accountId, b.accountId]));
      expect(bClaimed).toBe(20);
      // Turns alternate: B's 20 come out with about as many of A's 400, not after them.
      expect(claimOrder.length).toBeLessThanOrEqual(60);
    });
  });
}
