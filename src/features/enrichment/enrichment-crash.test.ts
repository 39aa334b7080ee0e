/**
 * A real `velvet worker` process killed with SIGKILL in the middle of an enrichment loses
 * nothing: once its lease expires another worker process runs the job again, and the customer
 * ends enriched exactly once (one result, one charge, the job gone).
 */
import { afterEach, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { type RunningProcess, spawnVelvet } from "../../../test/support/spawn-worker.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";

const LEASE_MS = "3000";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`enrichment survives a killed worker (${engine.name})`, () => {
    let fakes: FakeProviders | undefined;
    let app: TestApp | undefined;
    const children: RunningProcess[] = [];

    afterEach(async () => {
      for (const c of children.splice(0)) {
        if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
        await c.exited;
      }
      await app?.close();
      await fakes?.close();
    });

    it("runs the job again after the lease and completes it once", async () => {
      fakes = await startFakeProviders();
      // The first PDL answer takes long enough to kill the worker while it waits for it.
      fakes.pdl.setDefaultBehaviour([{ kind: "match", delay: 60_000 }, { kind: "match" }]);
      // Gravatar's keyless pace (100 an hour, one slot per 36 s) is shared by every process: the
      // killed worker's lookup took the slot, so the second would wait for the next one.
      const env = {
        ...fakes.env,
        JOB_LEASE_MS: LEASE_MS,
        WORKER_POLL_INTERVAL_MS: "100",
        GRAVATAR_RATE_LIMIT_PER_MIN: "60000",
      };
      app = await startTestApp(engine, { env }); // the API only: workers are separate processes
      const account = await app.createAccount();
      const email = `crash-${engine.name}-${Date.now()}@acme-corp.com`;

      const first = spawnVelvet(["worker"], app.database.url, env);
      children.push(first);
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Kat",
        lastName: "Ill",
        order: { id: "k1", total: "10.00" },
      });
      const { customerId } = (await res.json()) as { customerId: string };
      const pdl = fakes.pdl;
      await waitFor("the first worker is mid-enrichment", () => pdl.requestCount() === 1, 20_000);

      first.child.kill("SIGKILL");
      expect((await first.exited).signal).toBe("SIGKILL");
      const db = app.deps.db.kysely;
      // The enrichment's job (the worker also keeps its periodic retention rows).
      const enrichmentJob = () =>
        db.selectFrom("jobs").where("job_key", "=", `enrich-customer:${customerId}`);
      const held = await enrichmentJob()
        .select(["locked_by", "attempts"])
        .executeTakeFirstOrThrow();
      expect(held).toMatchObject({ attempts: 1, locked_by: expect.any(String) });

      const second = spawnVelvet(["worker"], app.database.url, env);
      children.push(second);
      await waitFor(
        "enriched by the second worker",
        async () =>
          (
            await db
              .selectFrom("customers")
              .select("enrichment_status")
              .where("id", "=", customerId)
              .executeTakeFirst()
          )?.enrichment_status === "enriched",
        30_000,
      );

      // The job is deleted just after the result commits.
      await waitFor(
        "the job settled",
        async () => (await enrichmentJob().selectAll().execute()).length === 0,
      );
      expect(pdl.requestCount()).toBe(2);
      const enrichment = await db
        .selectFrom("enrichments")
        .selectAll()
        .where("customer_id", "=", customerId)
        .executeTakeFirstOrThrow();
      expect(enrichment.attempts).toBe(2);
      expect(enrichment.score).not.toBeNull();
      const charges = await db
        .selectFrom("usage_charges")
        .selectAll()
        .where("customer_id", "=", customerId)
        .execute();
      expect(charges).toHaveLength(1);
    });
  });
}
