/**
 * 250 VIPs found within "5 seconds", all alerting one healthy Slack webhook: every alert is
 * delivered, none given up, and waiting for the one-message-per-interval pacing never spends an
 * attempt (each message goes out on its job's first attempt). Time is scaled down 25 times, for
 * Velvet and the fake Slack alike: pacing 40 ms instead of 1 s, an in-process wait of at most
 * 400 ms instead of 10 s, the VIPs found over 200 ms instead of 5 s; the fake refuses, with 429,
 * any message beyond Slack's own limit scaled the same way, so pacing must really hold.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type SeededVip, seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { AppDeps } from "../../app-deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import { createWorker, type Worker } from "../../jobs/worker.js";
import { createAlertDelivery } from "./alert-deps.js";
import type { AlertJobPayload } from "./alert-job.js";
import { alertTasks } from "./alert-tasks.js";
import type { ChatMessage } from "./build-chat-message.js";
import { deliverChatAlert } from "./channels/chat/chat-channel.js";
import { DELIVER_CHAT_ALERT_TASK, enqueueVipAlerts } from "./enqueue-vip-alerts.js";

const SCALE = 25;
const VIPS = 250;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`alert pacing on ${engine.name}`, () => {
    let chat: FakeChatServer;
    let testDeps: TestDeps;
    let deps: AppDeps;
    let worker: Worker;
    const vips: SeededVip[] = [];
    /** The job attempt on which each alert's message was sent. */
    const sentOnAttempt = new Map<string, number>();
    const delivery = createAlertDelivery(
      { alerts: { allowPrivateWebhooks: true, smtpUrl: null, from: "velvet@example.com" } },
      { pacingIntervalMs: 1000 / SCALE, maxPacingWaitMs: 10_000 / SCALE },
    );

    beforeAll(async () => {
      chat = await startChatServer({ rateLimit: { intervalMs: 1000 / SCALE, burst: 5 } });
      testDeps = await startTestDeps(engine, { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
      deps = testDeps.deps;
      for (let i = 0; i < VIPS; i++)
        vips.push(await seedVip(deps, { webhookUrl: chat.webhookUrl }));
      const tasks = [
        recordingAttempts(deliverChatAlert(delivery)),
        ...alertTasks(delivery).filter((task) => task.task !== DELIVER_CHAT_ALERT_TASK),
      ];
      worker = createWorker(deps, tasks, { concurrency: 16, pollIntervalMs: 20 });
      worker.start();
    }, 120_000);

    afterAll(async () => {
      await worker?.stop();
      await delivery.close();
      await testDeps?.close();
      await chat?.close();
    });

    function recordingAttempts(
      task: TaskDefinition<AlertJobPayload, AppDeps>,
    ): TaskDefinition<AlertJobPayload, AppDeps> {
      return {
        ...task,
        handle: async (d, payload, ctx) => {
          const outcome = await task.handle(d, payload, ctx);
          if (outcome.kind === "done") sentOnAttempt.set(payload.alertId, ctx.attempt);
          return outcome;
        },
      };
    }

    it("delivers all 250 alerts, none failed, each on its first attempt, within Slack's limit", async () => {
      const alertIds: string[] = [];
      // Found over 5 scaled seconds, in ten bursts, each committed and announced to the worker.
      for (let burst = 0; burst < 10; burst++) {
        const slice = vips.slice(burst * 25, (burst + 1) * 25);
        const queued = await deps.db.kysely.transaction().execute(async (trx) => {
          const all = [];
          for (const vip of slice)
            all.push(...(await enqueueVipAlerts(trx, vip, deps.clock.now())));
          return all;
        });
        alertIds.push(...queued.map((q) => q.alertId));
        deps.jobs.notify();
        await new Promise((resolve) => setTimeout(resolve, 5000 / SCALE / 10));
      }
      expect(alertIds).toHaveLength(VIPS);

      const statuses = async () =>
        deps.db.kysely.selectFrom("alerts").select(["id", "status", "attempts"]).execute();
      await waitFor(
        "every alert delivered or given up",
        async () =>
          (await statuses()).every((a) => a.status === "delivered" || a.status === "failed"),
        60_000,
      );
      const rows = await statuses();
      expect(rows.filter((a) => a.status !== "delivered")).toEqual([]);
      // Pacing holds Slack's limit. At 40 ms a slot, a busy machine that stalls the process lets
      // the slots that fell due meanwhile go out together, past the burst; the fake then answers
      // 429 as Slack would, and that alert waits for the Retry-After (recorded, no attempt spent)
      // like any other. A sender that did not pace would be refused for nearly every message
      // past the first burst; a paced one, on a quiet machine or a loaded one, for a few.
      const refused = chat.rateLimited();
      expect(refused).toBeLessThanOrEqual(VIPS / 10);
      expect(rows.reduce((sum, a) => sum + a.attempts, 0)).toBe(VIPS + refused);
      expect(chat.requests).toHaveLength(VIPS + refused);
      // Waiting for its turn never cost an attempt.
      expect([...sentOnAttempt.values()].filter((attempt) => attempt !== 1)).toEqual([]);
      expect(sentOnAttempt.size).toBe(VIPS);
      // Each message carries its alert's delivery id, once.
      const ids = chat.requests.map(
        (r) => (r.body as ChatMessage).metadata?.event_payload.delivery_id,
      );
      expect(new Set(ids).size).toBe(VIPS);
      expect(ids.every((id) => typeof id === "string")).toBe(true);
      const stored = await deps.db.kysely.selectFrom("alerts").select("message_id").execute();
      expect(new Set(ids)).toEqual(new Set(stored.map((a) => a.message_id)));
    }, 120_000);
  });
}
