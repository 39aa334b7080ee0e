/**
 * Listing and retrying given-up jobs on both engines, through the real worker: an enrichment
 * that gave up (customer `failed`) is revived with its customer back to `pending` and then
 * completes; a given-up alert is `pending` again; jobs that did not give up are left alone.
 */

import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedVip } from "../../test/support/alert-fixtures.js";
import { ENGINES } from "../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../test/support/test-deps.js";
import type { AppDeps } from "../app-deps.js";
import { createAccount } from "../features/accounts/create-account.js";
import { enqueueVipAlerts } from "../features/alerts/enqueue-vip-alerts.js";
import type { EnrichmentProvider } from "../features/enrichment/providers/provider.js";
import { submitOrder } from "../features/orders/submit-order.js";
import { allTasks } from "../tasks.js";
import { listJobs } from "./list-jobs.js";
import { retryJobs } from "./retry-jobs.js";
import { createWorker } from "./worker.js";

let providerUp = false;
const pdl: EnrichmentProvider = {
  name: "pdl",
  lookup: async () =>
    providerUp
      ? { kind: "matched", provider: "pdl", httpStatus: 200, profile: {}, raw: {} }
      : {
          kind: "transient",
          provider: "pdl",
          httpStatus: 503,
          error: "HTTP 503",
          cause: "server_error",
        },
};

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`retrying given-up jobs on ${engine.name}`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    beforeAll(async () => {
      testDeps = await startTestDeps(engine, {
        env: { ENRICHMENT_MAX_ATTEMPTS: "1" },
        providers: [pdl],
      });
      deps = testDeps.deps;
    });
    afterAll(() => testDeps?.close());

    const customerStatus = async (id: string) =>
      (
        await deps.db.kysely
          .selectFrom("customers")
          .select("enrichment_status")
          .where("id", "=", id)
          .executeTakeFirstOrThrow()
      ).enrichment_status;

    it("revives a given-up enrichment, which then completes", async () => {
      const now = deps.clock.now();
      const account = await createAccount(
        deps.db.kysely,
        { name: "Retry", ownerEmail: `r-${now}@example.com`, passwordHash: null },
        now,
      );
      const submission = {
        email: `jane-${now}@acme.com`,
        firstName: "Jane",
        lastName: "Doe",
        phone: null,
        address: null,
        order: null,
      };
      const { customerId } = await submitOrder(deps, account, submission, {
        requestId: "req-retry-1",
      });
      // The worker's log lines for the job carry the request id of the order that caused it.
      const lines: Array<Record<string, unknown>> = [];
      const sink = { write: (line: string) => lines.push(JSON.parse(line)) };
      const worker = createWorker({ ...deps, log: pino({ level: "info" }, sink) }, allTasks(deps));
      providerUp = false;
      await worker.runOnce();
      expect(await customerStatus(customerId)).toBe("failed");
      const gaveUp = lines.find((l) => l.msg === "job failed permanently");
      expect(gaveUp).toMatchObject({ requestId: "req-retry-1", task: "enrich-customer" });
      const failed = await listJobs(deps.db, { state: "failed" }, deps.clock.now());
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({
        task: "enrich-customer",
        state: "failed",
        attempts: 1,
        maxAttempts: 1,
        requestId: "req-retry-1",
        lastError: expect.stringContaining("HTTP 503"),
      });
      expect(await listJobs(deps.db, { state: "due" }, deps.clock.now())).toEqual([]);

      const id = failed[0]?.id as string;
      expect(await retryJobs(deps.db, allTasks(deps), { id }, deps.clock.now())).toEqual([id]);
      expect(await customerStatus(customerId)).toBe("pending");
      const due = await listJobs(
        deps.db,
        { state: "due", task: "enrich-customer" },
        deps.clock.now(),
      );
      expect(due.map((j) => [j.id, j.attempts, j.lastError])).toEqual([[id, 0, null]]);
      // Retrying a job that has not given up changes nothing.
      expect(await retryJobs(deps.db, allTasks(deps), { id }, deps.clock.now())).toEqual([]);

      providerUp = true;
      await worker.runOnce();
      expect(await customerStatus(customerId)).toBe("enriched");
      expect(await listJobs(deps.db, {}, deps.clock.now())).toEqual([]);
    });

    it("revives every given-up alert with --all-failed, its alert pending again", async () => {
      const vip = await seedVip(deps, { webhookUrl: "https://hooks.slack.com/services/T/B/x" });
      const now = deps.clock.now();
      const [queued] = await deps.db.kysely
        .transaction()
        .execute((trx) => enqueueVipAlerts(trx, vip, now));
      const alertId = queued?.alertId as string;
      // As a last failed attempt leaves them: the job exhausted, the alert failed.
      await deps.db.kysely
        .updateTable("jobs")
        .set((eb) => ({ attempts: eb.ref("max_attempts"), last_error: "HTTP 410" }))
        .where("job_key", "=", `alert:${alertId}`)
        .execute();
      await deps.db.kysely
        .updateTable("alerts")
        .set({ status: "failed", last_error: "HTTP 410" })
        .where("id", "=", alertId)
        .execute();

      const retried = await retryJobs(
        deps.db,
        allTasks(deps),
        { allFailed: true, task: "deliver-chat-alert" },
        deps.clock.now(),
      );
      expect(retried).toHaveLength(1);
      const alert = await deps.db.kysely
        .selectFrom("alerts")
        .select(["status", "last_error"])
        .where("id", "=", alertId)
        .executeTakeFirstOrThrow();
      expect(alert).toEqual({ status: "pending", last_error: "HTTP 410" });
      const [job] = await listJobs(deps.db, { task: "deliver-chat-alert" }, deps.clock.now());
      expect(job).toMatchObject({ state: "due", attempts: 0 });
    });
  });
}
