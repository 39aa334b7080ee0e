import { describe, expect, it } from "vitest";
import { backoffDelayMs, DEFAULT_BACKOFF } from "./backoff.js";

describe("backoffDelayMs", () => {
  const policy = { baseMs: 1000, maxMs: 10_000 };

  it.each([
    [1, 1000],
    [2, 2000],
    [3, 4000],
    [4, 8000],
    [5, 10_000],
    [50, 10_000],
  ])("after attempt %i waits at most %i ms", (attempt, ceiling) => {
    expect(backoffDelayMs(attempt, policy, () => 0.999999)).toBe(Math.floor(0.999999 * ceiling));
    expect(backoffDelayMs(attempt, policy, () => 0.5)).toBe(ceiling / 2);
  });

  it("jitters over the whole range, from zero", () => {
    expect(backoffDelayMs(3, policy, () => 0)).toBe(0);
    const delays = new Set(Array.from({ length: 50 }, () => backoffDelayMs(3, policy)));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(0);
    for (const d of delays) expect(d).toBeLessThan(4000);
  });

  it("stays finite for absurd attempt counts and defaults to 1 s doubling up to 5 minutes", () => {
    expect(backoffDelayMs(10_000, DEFAULT_BACKOFF, () => 0.5)).toBe(150_000);
    expect(backoffDelayMs(1, undefined, () => 0.5)).toBe(500);
  });

  it("with a spread, draws around the ceiling, never near zero", () => {
    const around = { ...policy, spread: 0.2 };
    expect(backoffDelayMs(3, around, () => 0)).toBe(3200);
    expect(backoffDelayMs(3, around, () => 0.5)).toBe(4000);
    expect(backoffDelayMs(50, around, () => 0.999999)).toBe(11_999);
    const delays = Array.from({ length: 50 }, () => backoffDelayMs(50, around));
    for (const d of delays) expect(d).toBeGreaterThanOrEqual(8000);
  });
});
