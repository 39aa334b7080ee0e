import { describe, expect, it } from "vitest";
import { nextAttemptDelayMs, RETRY_JITTER, RETRY_SCHEDULE_MS } from "./delivery-task.js";

const DAY = 24 * 3_600_000;

describe("nextAttemptDelayMs", () => {
  it("draws each step of the schedule within ±10 %, never the same for every delivery", () => {
    expect(RETRY_JITTER).toBe(0.1);
    // The first step is 5 s: from 4.5 s (a draw of 0) to just under 5.5 s (a draw near 1).
    expect(nextAttemptDelayMs(1, undefined, DAY, () => 0)).toBe(4_500);
    expect(nextAttemptDelayMs(1, undefined, DAY, () => 0.5)).toBe(5_000);
    expect(nextAttemptDelayMs(1, undefined, DAY, () => 0.999_999)).toBe(5_499);
    // The second, 5 min; past the schedule's end, its last step (10 h).
    expect(nextAttemptDelayMs(2, undefined, DAY, () => 0)).toBe(270_000);
    expect(nextAttemptDelayMs(40, undefined, DAY, () => 1)).toBe(39_600_000);
    const draws = new Set(Array.from({ length: 20 }, () => nextAttemptDelayMs(3, undefined, DAY)));
    expect(draws.size).toBeGreaterThan(1);
    for (const d of draws) {
      expect(d).toBeGreaterThanOrEqual(0.9 * (RETRY_SCHEDULE_MS[2] ?? 0));
      expect(d).toBeLessThan(1.1 * (RETRY_SCHEDULE_MS[2] ?? 0));
    }
  });

  it("honours a longer Retry-After, ends with the window, and waits at least a second", () => {
    expect(nextAttemptDelayMs(1, 60_000, DAY, () => 0.5)).toBe(60_000);
    expect(nextAttemptDelayMs(1, 2_000, DAY, () => 0.5)).toBe(5_000);
    expect(nextAttemptDelayMs(5, undefined, 90_000, () => 0.5)).toBe(90_000);
    expect(nextAttemptDelayMs(5, undefined, 10, () => 0.5)).toBe(1_000);
  });
});
