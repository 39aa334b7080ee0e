/**
 * Chat alerts to one webhook from two `velvet worker` processes on one database leave at one
 * a second in all, on both engines: the fake Slack receives the eight messages over at least
 * six seconds, and never has to answer 429 (its own limit is Slack's: one a second, a burst of
 * two tolerated). Paced per process, the two would send two a second, the eight in under four.
 * How evenly the slots arrive is a timing figure a busy machine blurs (a process descheduled
 * for a moment sends late, and the next message, on time, closes the gap): it is printed with
 * a failure, not asserted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type SeededVip, seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { openTestDeps, waitFor } from "../../../test/support/job-deps.js";
import { stopProcess } from "../../../test/support/serve-process.js";
import { type RunningProcess, spawnVelvet } from "../../../test/support/spawn-worker.js";
import type { AppDeps } from "../../app-deps.js";
import { closeDeps } from "../../main.js";
import { enqueueVipAlerts } from "./enqueue-vip-alerts.js";

const ALERTS = 8;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`chat pacing across processes (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    let chat: FakeChatServer;
    const workers: RunningProcess[] = [];

    beforeAll(async () => {
      chat = await startChatServer({ rateLimit: { intervalMs: 1000, burst: 2 } });
      database = await engine.createMigrated();
      deps = await openTestDeps(database);
    }, 30_000);
    afterAll(async () => {
      await Promise.all(workers.map(stopProcess));
      if (deps) await closeDeps(deps);
      await database?.drop();
      await chat?.close();
    });

    it("sends one message a second to the webhook in all", async () => {
      const vips: SeededVip[] = [];
      for (let i = 0; i < ALERTS; i++)
        vips.push(await seedVip(deps, { webhookUrl: chat.webhookUrl }));
      // Two jobs at a time each, so that both processes hold alerts for the webhook at once.
      const env = {
        WEBHOOKS_ALLOW_PRIVATE: "true",
        WORKER_POLL_INTERVAL_MS: "50",
        WORKER_CONCURRENCY: "2",
      };
      workers.push(spawnVelvet(["worker"], database.url, env));
      workers.push(spawnVelvet(["worker"], database.url, env));
      await deps.db.kysely.transaction().execute(async (trx) => {
        for (const vip of vips) await enqueueVipAlerts(trx, vip, Date.now());
      });
      await waitFor(
        `${ALERTS} messages at the webhook`,
        () => chat.requests.length >= ALERTS,
        25_000,
      );
      const at = chat.requests.map((r) => r.at).sort((a, b) => a - b);
      const gaps = at.slice(1).map((t, i) => t - (at[i] as number));
      // Slots are kept at the sending end, one a second: the last message leaves seven slots
      // after the first. The first message a process sends also pays its outbound client's
      // start (a new connection, code loaded on first use) after its slot, ~150 ms measured
      // here, and a loaded machine may send any message late: a second of slack covers both.
      const span = (at.at(-1) as number) - (at[0] as number);
      expect(span, `gaps ${gaps.join(", ")}`).toBeGreaterThanOrEqual((ALERTS - 2) * 1000);
      expect(chat.rateLimited(), `gaps ${gaps.join(", ")}`).toBe(0);
    }, 40_000);
  });
}
