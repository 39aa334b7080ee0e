/**
 * Queueing a VIP's alerts inside the caller's transaction, on both engines: one alert row and
 * one job per configured channel, never a second one for the same customer and channel (not on
 * re-enrichment, not when two transactions race), nothing when the transaction rolls back.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { AppDeps } from "../../app-deps.js";
import { ALERT_MAX_ATTEMPTS, enqueueVipAlerts, type VipAlertInput } from "./enqueue-vip-alerts.js";

const WEBHOOK = "https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`enqueueVipAlerts on ${engine.name}`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    beforeAll(async () => {
      testDeps = await startTestDeps(engine);
      deps = testDeps.deps;
    });
    afterAll(async () => {
      await testDeps?.close();
    });

    const enqueue = (vip: VipAlertInput) =>
      deps.db.kysely.transaction().execute((trx) => enqueueVipAlerts(trx, vip, deps.clock.now()));
    const alertsOf = (customerId: string) =>
      deps.db.kysely
        .selectFrom("alerts")
        .selectAll()
        .where("customer_id", "=", customerId)
        .orderBy("channel")
        .execute();
    const jobsFor = async (alertIds: string[]) =>
      alertIds.length === 0
        ? []
        : deps.db.kysely
            .selectFrom("jobs")
            .selectAll()
            .where(
              "job_key",
              "in",
              alertIds.map((id) => `alert:${id}`),
            )
            .orderBy("task")
            .execute();

    it("writes one alert and one job per configured channel", async () => {
      const vip = await seedVip(deps, {
        webhookUrl: WEBHOOK,
        alertEmails: ["team@acme.com", "ceo@acme.com"],
      });
      const queued = await enqueue(vip);
      expect(queued.map((q) => q.channel)).toEqual(["chat", "email"]);
      const alerts = await alertsOf(vip.customerId);
      expect(alerts).toHaveLength(2);
      expect(
        alerts.map((a) => [a.channel, a.status, a.target, a.score, a.threshold, a.attempts]),
      ).toEqual([
        ["chat", "pending", "https://hooks.slack.com/…uvwx", 87, 70, 0],
        ["email", "pending", "team@acme.com, ceo@acme.com", 87, 70, 0],
      ]);
      for (const a of alerts) expect(a.message_id).toBe(`<${a.id}@velvet>`);
      const jobs = await jobsFor(alerts.map((a) => a.id));
      expect(jobs.map((j) => [j.task, j.max_attempts, JSON.parse(j.payload)])).toEqual([
        ["deliver-chat-alert", ALERT_MAX_ATTEMPTS, { alertId: alerts[0]?.id }],
        ["deliver-email-alert", ALERT_MAX_ATTEMPTS, { alertId: alerts[1]?.id }],
      ]);
    });

    it("never alerts the same customer twice on a channel, even re-enriched with another score", async () => {
      const vip = await seedVip(deps, { webhookUrl: WEBHOOK, alertEmails: ["team@acme.com"] });
      const first = await enqueue(vip);
      const again = await enqueue({ ...vip, score: 95 });
      expect(again).toEqual([]);
      const alerts = await alertsOf(vip.customerId);
      expect(alerts.map((a) => a.id).sort()).toEqual(first.map((q) => q.alertId).sort());
      expect(alerts.every((a) => a.score === 87)).toBe(true);
      expect(await jobsFor(alerts.map((a) => a.id))).toHaveLength(2);
      const allJobs = await deps.db.kysely
        .selectFrom("jobs")
        .select("id")
        .where("job_key", "like", "alert:%")
        .execute();
      const racing = await seedVip(deps, { webhookUrl: WEBHOOK, alertEmails: ["team@acme.com"] });
      const results = await Promise.all([enqueue(racing), enqueue(racing), enqueue(racing)]);
      expect(results.flat()).toHaveLength(2);
      expect(await alertsOf(racing.customerId)).toHaveLength(2);
      const after = await deps.db.kysely
        .selectFrom("jobs")
        .select("id")
        .where("job_key", "like", "alert:%")
        .execute();
      expect(after.length - allJobs.length).toBe(2);
    });

    it("skips channels that are not configured", async () => {
      const chatOnly = await seedVip(deps, { webhookUrl: WEBHOOK });
      expect((await enqueue(chatOnly)).map((q) => q.channel)).toEqual(["chat"]);
      const none = await seedVip(deps);
      expect(await enqueue(none)).toEqual([]);
      expect(await alertsOf(none.customerId)).toEqual([]);
      const emailOnly = await seedVip(deps, { alertEmails: ["team@acme.com"] });
      expect((await enqueue(emailOnly)).map((q) => q.channel)).toEqual(["email"]);
    });

    it("writes nothing when the caller's transaction rolls back", async () => {
      const vip = await seedVip(deps, { webhookUrl: WEBHOOK, alertEmails: ["team@acme.com"] });
      await expect(
        deps.db.kysely.transaction().execute(async (trx) => {
          await enqueueVipAlerts(trx, vip, deps.clock.now());
          throw new Error("enrichment failed after scoring");
        }),
      ).rejects.toThrow("enrichment failed");
      expect(await alertsOf(vip.customerId)).toEqual([]);
      expect((await enqueue(vip)).length).toBe(2);
    });
  });
}
