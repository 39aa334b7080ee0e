/**
 * 250 VIPs found within "5 seconds", all alerting one healthy Slack webhook: every alert is
 * delivered, none given up, and waiting for the one-message-per-interval pacing never spends an
 * attempt (each message goes out on its job's first attempt). Time is scaled down 25 times, for
 * Velvet and the fake Slack alike: pacing 40 ms instead of 1 s, an in-process wait of at most
 * 400 ms instead of 10 s, the VIPs found over 200 ms instead of 5 s; the fake refuses, with 429,
 * any message beyond Slack's own limit scaled the same way, so pacing must really hold. The
 * refusals asserted here are a bound a loaded machine keeps (at most 25); the quiet-machine
 * target, at most 5, is the benchmark's `pacing` phase (bench/pacing.ts, docs/performance.md),
 * which runs this same scenario (test/support/scaled-alert-pacing.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  type ScaledAlertPacing,
  startScaledAlertPacing,
} from "../../../test/support/scaled-alert-pacing.js";
import type { AppDeps } from "../../app-deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import type { AlertJobPayload } from "./alert-job.js";
import type { ChatMessage } from "./build-chat-message.js";

const SCALE = 25;
const VIPS = 250;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`alert pacing on ${engine.name}`, () => {
    let pacing: ScaledAlertPacing;
    /** The job attempt on which each alert's message was sent. */
    const sentOnAttempt = new Map<string, number>();

    beforeAll(async () => {
      pacing = await startScaledAlertPacing(engine, {
        scale: SCALE,
        vips: VIPS,
        wrapChatTask: recordingAttempts,
      });
    }, 120_000);

    afterAll(async () => {
      await pacing?.close();
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
      const { chat, deps } = pacing;
      // Found over 5 scaled seconds, in ten bursts, each committed and announced to the worker.
      const alertIds = await pacing.findInBursts(10, 5000 / SCALE);
      expect(alertIds).toHaveLength(VIPS);
      const rows = await pacing.settled(60_000);
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
