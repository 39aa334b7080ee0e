/**
 * Retention on both engines: raw provider answers past PROVIDER_DATA_RETENTION_DAYS are
 * removed while the profile and the score's explanation stay; with CUSTOMER_RETENTION_DAYS a
 * customer without a recent order is erased (audited, by the system); both run as periodic
 * jobs of the real worker, one keyed row each, rescheduled by their handler.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedVip, VIP_SIGNALS } from "../../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { manualClock, waitFor } from "../../../../test/support/job-deps.js";
import { startTestDeps, type TestDeps } from "../../../../test/support/test-deps.js";
import type { AppDeps } from "../../../app-deps.js";
import { periodicJobKey } from "../../../jobs/periodic-jobs.js";
import { createWorker } from "../../../jobs/worker.js";
import { newId } from "../../../lib/ids.js";
import { listAuditEvents } from "../../audit/list-audit-events.js";
import { clearOldProviderAnswers } from "./clear-provider-answers.js";
import { eraseInactiveCustomers } from "./erase-inactive-customers.js";
import { RETENTION_EVERY_MS, retentionTasks } from "./retention-tasks.js";

const DAY = 86_400_000;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`retention (${engine.name})`, () => {
    const clock = manualClock(Date.UTC(2025, 0, 1));
    let testDeps: TestDeps;
    let deps: AppDeps;

    beforeAll(async () => {
      testDeps = await startTestDeps(engine, { clock, env: { CUSTOMER_RETENTION_DAYS: "365" } });
      deps = testDeps.deps;
    });
    afterAll(async () => {
      await testDeps?.close();
    });

    async function answer(customerId: string, raw: object) {
      await deps.db.kysely
        .insertInto("provider_results")
        .values({
          id: newId(clock.now()),
          customer_id: customerId,
          provider: "fullcontact",
          outcome: "matched",
          http_status: 200,
          raw: JSON.stringify(raw),
          profile: JSON.stringify({ householdIncomeUsd: 250000 }),
          error: null,
          fetched_at: clock.now(),
        })
        .execute();
    }
    const rawOf = (customerId: string) =>
      deps.db.kysely
        .selectFrom("provider_results")
        .select(["raw", "raw_cleared_at", "profile"])
        .where("customer_id", "=", customerId)
        .executeTakeFirstOrThrow();

    it("removes raw answers past the provider retention, keeping profile and explanation", async () => {
      const old = await seedVip(deps);
      await answer(old.customerId, { email: old.email, income: "250k+" });
      clock.advance(91 * DAY);
      const fresh = await seedVip(deps);
      await answer(fresh.customerId, { email: fresh.email });

      expect(await clearOldProviderAnswers(deps)).toEqual({ cleared: 1, more: false });
      expect(await rawOf(old.customerId)).toEqual({
        raw: null,
        raw_cleared_at: clock.now(),
        profile: JSON.stringify({ householdIncomeUsd: 250000 }),
      });
      const enrichment = await deps.db.kysely
        .selectFrom("enrichments")
        .select(["signals", "profile", "score"])
        .where("customer_id", "=", old.customerId)
        .executeTakeFirstOrThrow();
      expect(JSON.parse(enrichment.signals)).toHaveLength(VIP_SIGNALS.length);
      expect(enrichment.score).toBe(87);
      expect((await rawOf(fresh.customerId)).raw).toContain(fresh.email);
      expect(await clearOldProviderAnswers(deps)).toEqual({ cleared: 0, more: false });

      // Customer retention: the first customer's last order is now past 365 days.
      clock.advance(275 * DAY);
      expect(await eraseInactiveCustomers(deps)).toEqual({ erased: 1, more: false });
      const left = await deps.db.kysely.selectFrom("customers").select("id").execute();
      expect(left.map((c) => c.id)).toEqual([fresh.customerId]);
      const { events } = await listAuditEvents(deps.db.kysely, old.accountId);
      expect(events[0]).toMatchObject({
        action: "customer.erased",
        actorKind: "system",
        actor: "retention",
        subject: old.customerId,
      });
      expect((await listAuditEvents(deps.db.kysely, fresh.accountId)).total).toBe(0);
    });

    it("keeps every customer when CUSTOMER_RETENTION_DAYS is not set", async () => {
      clock.advance(5000 * DAY);
      const off = {
        ...deps,
        config: { ...deps.config, retention: { providerDataDays: 90, customerDays: null } },
      };
      expect(await eraseInactiveCustomers(off)).toEqual({ erased: 0, more: false });
      expect(await deps.db.kysely.selectFrom("customers").select("id").execute()).toHaveLength(1);
    });

    it("runs both as periodic jobs: one keyed row each, rescheduled an hour later", async () => {
      const worker = createWorker(deps, retentionTasks(), { pollIntervalMs: 20 });
      worker.start();
      try {
        await waitFor("both retention runs", async () => {
          const rows = await deps.db.kysely
            .selectFrom("jobs")
            .select(["run_at", "attempts", "locked_by"])
            .where(
              "job_key",
              "in",
              retentionTasks().map((t) => periodicJobKey(t.task)),
            )
            .execute();
          return (
            rows.length === 2 &&
            rows.every(
              (r) =>
                r.run_at === clock.now() + RETENTION_EVERY_MS &&
                r.attempts === 0 &&
                r.locked_by === null,
            )
          );
        });
      } finally {
        await worker.stop();
      }
      // Customer retention ran inside the worker: the last customer had no order in 365 days.
      expect(await deps.db.kysely.selectFrom("customers").select("id").execute()).toEqual([]);
    });
  });
}
