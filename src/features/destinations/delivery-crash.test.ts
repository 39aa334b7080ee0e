/**
 * Exactly once across a crash: a real `velvet worker` killed with SIGKILL while its webhook
 * request is in flight loses nothing and duplicates nothing. Once its lease expires another
 * worker process sends the same delivery again, under the same webhook-id (so the receiver,
 * which may have seen the first, drops the duplicate by id), and the delivery ends delivered
 * once: one row, one job gone, both requests verifiable with the `standardwebhooks` library.
 */
import { Webhook } from "standardwebhooks";
import { afterEach, describe, expect, it } from "vitest";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../test/fakes/webhook-receiver.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { type RunningProcess, spawnVelvet } from "../../../test/support/spawn-worker.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { systemActor } from "../audit/audit-actor.js";
import { addDestination } from "./add-destination.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a delivery survives a killed worker (${engine.name})`, () => {
    let receiver: FakeWebhookReceiver | undefined;
    let app: TestApp | undefined;
    const children: RunningProcess[] = [];

    afterEach(async () => {
      for (const c of children.splice(0)) {
        if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill("SIGKILL");
        await c.exited;
      }
      await app?.close();
      await receiver?.close();
    });

    it("sends it again under the same webhook-id after the lease, and settles it once", async () => {
      receiver = await startWebhookReceiver();
      // The first request hangs until the worker holding it is killed.
      receiver.reply({ hangMs: 60_000 });
      const env = { ...STORE_SYNC_ENV, JOB_LEASE_MS: "3000", WORKER_POLL_INTERVAL_MS: "100" };
      app = await startTestApp(engine, { env }); // the API only: workers are separate processes
      const account = await app.createAccount();
      const added = await addDestination(app.deps, {
        accountId: account.accountId,
        kind: "webhook",
        fields: { url: receiver.url },
        events: "customer.enriched",
        actor: systemActor("test"),
      });
      const res = await app.submit(account.apiKey, {
        email: `crash-${engine.name}@example.com`,
        firstName: "Kat",
        lastName: "Ill",
        order: { id: "k1", total: "10.00" },
      });
      const { customerId } = (await res.json()) as { customerId: string };

      const first = spawnVelvet(["worker"], app.database.url, env);
      children.push(first);
      const hooks = receiver.requests;
      await waitFor("the first worker is mid-delivery", () => hooks.length === 1, 30_000);
      first.child.kill("SIGKILL");
      expect((await first.exited).signal).toBe("SIGKILL");

      const db = app.deps.db.kysely;
      const delivery = await db
        .selectFrom("destination_deliveries")
        .selectAll()
        .where("customer_id", "=", customerId)
        .executeTakeFirstOrThrow();
      expect(delivery.status).toBe("pending");
      const job = () => db.selectFrom("jobs").where("job_key", "=", `destination:${delivery.id}`);
      expect(await job().select(["locked_by", "attempts"]).executeTakeFirstOrThrow()).toMatchObject(
        {
          attempts: 1,
          locked_by: expect.any(String),
        },
      );

      const second = spawnVelvet(["worker"], app.database.url, env);
      children.push(second);
      await waitFor(
        "delivered by the second worker",
        async () =>
          (
            await db
              .selectFrom("destination_deliveries")
              .select("status")
              .where("id", "=", delivery.id)
              .executeTakeFirstOrThrow()
          ).status === "delivered",
        30_000,
      );
      await waitFor(
        "the job settled",
        async () => (await job().selectAll().execute()).length === 0,
      );

      expect(hooks).toHaveLength(2);
      expect(hooks.map((h) => h.headers["webhook-id"])).toEqual([delivery.id, delivery.id]);
      const verifier = new Webhook(added.revealed.secret ?? "");
      for (const hook of hooks) expect(verifier.verify(hook.raw, hook.headers)).toEqual(hook.body);
      const rows = await db
        .selectFrom("destination_deliveries")
        .select(["event", "status"])
        .where("account_id", "=", account.accountId)
        .execute();
      expect(rows).toEqual([{ event: "customer.enriched", status: "delivered" }]);
      const attempts = await db
        .selectFrom("destination_attempts")
        .select("outcome")
        .where("delivery_id", "=", delivery.id)
        .execute();
      // The killed attempt never recorded its end; the second one did.
      expect(attempts).toEqual([{ outcome: "delivered" }]);
    });
  });
}
