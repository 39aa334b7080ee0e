/**
 * Chat alerts to one webhook from two `velvet worker` processes on one database leave at one
 * a second in all, on both engines: the fake Slack receives the eight messages over at least
 * six seconds, and never has to answer 429 (its own limit is Slack's: one a second, a burst of
 * two tolerated). Paced per process, the two would send two a second, the eight in under four.
 * How evenly the slots arrive is a timing figure a busy machine blurs (a process descheduled
 * for a moment sends late, and the next message, on time, closes the gap): it is printed with
 * a failure, not asserted here. The quiet-machine targets (the first gap at least 750 ms, every
 * later one at least 950 ms, no 429) are the benchmark's `pacing` phase (bench/pacing.ts,
 * docs/performance.md), which runs this same scenario (test/support/chat-pacing-processes.ts).
 */
import { describe, expect, it } from "vitest";
import { chatPacingAcrossProcesses } from "../../../test/support/chat-pacing-processes.js";
import { ENGINES } from "../../../test/support/databases.js";

const ALERTS = 8;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`chat pacing across processes (${engine.name})`, () => {
    it("sends one message a second to the webhook in all", async () => {
      const { at, gaps, rateLimited } = await chatPacingAcrossProcesses(engine, ALERTS);
      // Slots are kept at the sending end, one a second: the last message leaves seven slots
      // after the first. The first message a process sends also pays its outbound client's
      // start (a new connection, code loaded on first use) after its slot, ~150 ms measured
      // here, and a loaded machine may send any message late: a second of slack covers both.
      const span = (at.at(-1) as number) - (at[0] as number);
      expect(span, `gaps ${gaps.join(", ")}`).toBeGreaterThanOrEqual((ALERTS - 2) * 1000);
      expect(rateLimited, `gaps ${gaps.join(", ")}`).toBe(0);
    }, 60_000);
  });
}
