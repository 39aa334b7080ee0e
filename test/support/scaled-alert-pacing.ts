/**
 * Many VIPs found within a few seconds, all alerting one healthy Slack webhook, with time scaled
 * down `scale` times for Velvet and the fake Slack alike: Velvet's chat pacing (one message per
 * 1 s / scale, an in-process wait of at most 10 s / scale) against the fake's own copy of Slack's
 * per-webhook limit (test/fakes/chat-server.ts: one a second, a burst of five tolerated, scaled
 * the same). The VIPs are seeded, and a job loop of the alert tasks runs in this process. Used by
 * the alert pacing test (which asserts what holds on a loaded machine) and the benchmark's
 * `pacing` phase (which holds the quiet-machine target).
 */
import type { AppDeps } from "../../src/app-deps.js";
import { createAlertDelivery } from "../../src/features/alerts/alert-deps.js";
import type { AlertJobPayload } from "../../src/features/alerts/alert-job.js";
import { alertTasks } from "../../src/features/alerts/alert-tasks.js";
import { deliverChatAlert } from "../../src/features/alerts/channels/chat/chat-channel.js";
import {
  DELIVER_CHAT_ALERT_TASK,
  enqueueVipAlerts,
} from "../../src/features/alerts/enqueue-vip-alerts.js";
import type { TaskDefinition } from "../../src/jobs/task.js";
import { createWorker } from "../../src/jobs/worker.js";
import { type FakeChatServer, startChatServer } from "../fakes/chat-server.js";
import { type SeededVip, seedVip } from "./alert-fixtures.js";
import type { Engine } from "./databases.js";
import { waitFor } from "./job-deps.js";
import { startTestDeps } from "./test-deps.js";

type ChatTask = TaskDefinition<AlertJobPayload, AppDeps>;

export interface ScaledAlertPacingOptions {
  /** How many times faster than real time. */
  scale: number;
  vips: number;
  /** Wraps the chat delivery task (e.g. to record each job's attempt). */
  wrapChatTask?: (task: ChatTask) => ChatTask;
}

export interface AlertRow {
  id: string;
  status: string;
  attempts: number;
}

export interface ScaledAlertPacing {
  chat: FakeChatServer;
  deps: AppDeps;
  vips: SeededVip[];
  /**
   * Enqueues every VIP's alerts in `bursts` equal slices spread over `overMs`, each committed and
   * announced to the worker; resolves with the alert ids.
   */
  findInBursts(bursts: number, overMs: number): Promise<string[]>;
  /** Waits until every alert is delivered or given up; resolves with their rows. */
  settled(timeoutMs: number): Promise<AlertRow[]>;
  close(): Promise<void>;
}

export async function startScaledAlertPacing(
  engine: Engine,
  options: ScaledAlertPacingOptions,
): Promise<ScaledAlertPacing> {
  const { scale } = options;
  const chat = await startChatServer({ rateLimit: { intervalMs: 1000 / scale, burst: 5 } });
  const delivery = createAlertDelivery(
    { alerts: { allowPrivateWebhooks: true, smtpUrl: null, from: "velvet@example.com" } },
    { pacingIntervalMs: 1000 / scale, maxPacingWaitMs: 10_000 / scale },
  );
  const testDeps = await startTestDeps(engine, { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
  const deps = testDeps.deps;
  const vips: SeededVip[] = [];
  for (let i = 0; i < options.vips; i++)
    vips.push(await seedVip(deps, { webhookUrl: chat.webhookUrl }));
  const wrap = options.wrapChatTask ?? ((task: ChatTask) => task);
  const tasks = [
    wrap(deliverChatAlert(delivery)),
    ...alertTasks(delivery).filter((task) => task.task !== DELIVER_CHAT_ALERT_TASK),
  ];
  const worker = createWorker(deps, tasks, { concurrency: 16, pollIntervalMs: 20 });
  worker.start();

  const rows = (): Promise<AlertRow[]> =>
    deps.db.kysely.selectFrom("alerts").select(["id", "status", "attempts"]).execute();

  return {
    chat,
    deps,
    vips,
    findInBursts: async (bursts, overMs) => {
      const alertIds: string[] = [];
      const size = Math.ceil(vips.length / bursts);
      for (let burst = 0; burst < bursts; burst++) {
        const slice = vips.slice(burst * size, (burst + 1) * size);
        const queued = await deps.db.kysely.transaction().execute(async (trx) => {
          const all = [];
          for (const vip of slice)
            all.push(...(await enqueueVipAlerts(trx, vip, deps.clock.now())));
          return all;
        });
        alertIds.push(...queued.map((q) => q.alertId));
        deps.jobs.notify();
        await new Promise((resolve) => setTimeout(resolve, overMs / bursts));
      }
      return alertIds;
    },
    settled: async (timeoutMs) => {
      await waitFor(
        "every alert delivered or given up",
        async () => (await rows()).every((a) => a.status === "delivered" || a.status === "failed"),
        timeoutMs,
      );
      return rows();
    },
    close: async () => {
      await worker.stop();
      await delivery.close();
      await testDeps.close();
      await chat.close();
    },
  };
}
