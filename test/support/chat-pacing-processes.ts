/**
 * Chat alerts to one webhook from two `velvet worker` processes (from source) on one fresh
 * migrated database, each running two jobs at a time so that both hold alerts for the webhook at
 * once, against the fake Slack applying Slack's own limit for an incoming webhook (one a second,
 * a burst of two tolerated: test/fakes/chat-server.ts). Resolves once `alerts` messages have
 * arrived with when each arrived and how many the limit refused; stops the processes and drops
 * the database whatever happens. Used by the cross-process pacing test and the benchmark's
 * `pacing` phase.
 */

import { enqueueVipAlerts } from "../../src/features/alerts/enqueue-vip-alerts.js";
import { closeDeps } from "../../src/main.js";
import { startChatServer } from "../fakes/chat-server.js";
import { type SeededVip, seedVip } from "./alert-fixtures.js";
import type { Engine } from "./databases.js";
import { openTestDeps, waitFor } from "./job-deps.js";
import { stopProcess } from "./serve-process.js";
import { type RunningProcess, spawnVelvet } from "./spawn-worker.js";

export interface ChatPacingRun {
  /** When each message reached the fake Slack (epoch ms), in order. */
  at: number[];
  /** The gaps between consecutive arrivals, ms. */
  gaps: number[];
  /** Messages the fake Slack refused with 429. */
  rateLimited: number;
}

export async function chatPacingAcrossProcesses(
  engine: Engine,
  alerts: number,
  options: { timeoutMs?: number; onSpawn?: (velvet: RunningProcess) => void } = {},
): Promise<ChatPacingRun> {
  const chat = await startChatServer({ rateLimit: { intervalMs: 1000, burst: 2 } });
  const database = await engine.createMigrated();
  const deps = await openTestDeps(database);
  const workers: RunningProcess[] = [];
  try {
    const vips: SeededVip[] = [];
    for (let i = 0; i < alerts; i++)
      vips.push(await seedVip(deps, { webhookUrl: chat.webhookUrl }));
    const env = {
      WEBHOOKS_ALLOW_PRIVATE: "true",
      WORKER_POLL_INTERVAL_MS: "50",
      WORKER_CONCURRENCY: "2",
    };
    for (let i = 0; i < 2; i++) {
      const velvet = spawnVelvet(["worker"], database.url, env);
      workers.push(velvet);
      options.onSpawn?.(velvet);
    }
    await deps.db.kysely.transaction().execute(async (trx) => {
      for (const vip of vips) await enqueueVipAlerts(trx, vip, Date.now());
    });
    await waitFor(
      `${alerts} messages at the webhook`,
      () => chat.requests.length >= alerts,
      options.timeoutMs ?? 25_000,
    );
    const at = chat.requests.map((r) => r.at).sort((a, b) => a - b);
    return {
      at,
      gaps: at.slice(1).map((t, i) => t - (at[i] as number)),
      rateLimited: chat.rateLimited(),
    };
  } finally {
    await Promise.all(workers.map(stopProcess));
    await closeDeps(deps);
    await database.drop();
    await chat.close();
  }
}
