import { describe, expect, it } from "vitest";
import { type BreakerState, createCircuitBreaker } from "./circuit-breaker.js";

function breakerWithClock(failureThreshold = 3, cooldownMs = 1_000, probeTimeoutMs = 500) {
  const clock = { t: 1_000_000 };
  const changes: Array<[BreakerState, BreakerState]> = [];
  const breaker = createCircuitBreaker({
    failureThreshold,
    cooldownMs,
    probeTimeoutMs,
    now: () => clock.t,
    onChange: ({ from, to }) => changes.push([from, to]),
  });
  return { breaker, clock, changes };
}

function fail(breaker: ReturnType<typeof createCircuitBreaker>, times: number): void {
  for (let i = 0; i < times; i++) {
    const admission = breaker.admit();
    breaker.record("failure", admission.ok && admission.probe);
  }
}

describe("circuit breaker", () => {
  it("opens after the threshold of consecutive failures, and an answer resets the count", () => {
    const { breaker } = breakerWithClock(3);
    fail(breaker, 2);
    breaker.record("success", false);
    fail(breaker, 2);
    expect(breaker.state).toBe("closed");
    fail(breaker, 1);
    expect(breaker.state).toBe("open");
  });

  it("refuses while open, saying how long the cooldown still runs", () => {
    const { breaker, clock } = breakerWithClock(3, 1_000);
    fail(breaker, 3);
    clock.t += 400;
    expect(breaker.peek()).toEqual({
      ok: false,
      retryAfterMs: 600,
      reason: "circuit open after 3 consecutive failures",
    });
    expect(breaker.admit()).toMatchObject({ ok: false, retryAfterMs: 600 });
  });

  it("half-opens after the cooldown, lets one probe through, and closes on its success", () => {
    const { breaker, clock, changes } = breakerWithClock(3, 1_000, 500);
    fail(breaker, 3);
    clock.t += 1_000;
    expect(breaker.peek()).toEqual({ ok: true, probe: true });
    expect(breaker.state).toBe("open");
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
    expect(breaker.state).toBe("half_open");
    clock.t += 100;
    expect(breaker.admit()).toMatchObject({
      ok: false,
      retryAfterMs: 400,
      reason: expect.stringMatching(/probe/),
    });
    breaker.record("success", true);
    expect(breaker.state).toBe("closed");
    expect(breaker.consecutiveFailures).toBe(0);
    expect(breaker.admit()).toEqual({ ok: true, probe: false });
    expect(changes).toEqual([
      ["closed", "open"],
      ["open", "half_open"],
      ["half_open", "closed"],
    ]);
  });

  it("opens again for a full cooldown when the probe fails", () => {
    const { breaker, clock } = breakerWithClock(3, 1_000);
    fail(breaker, 3);
    clock.t += 1_000;
    const probe = breaker.admit();
    expect(probe).toEqual({ ok: true, probe: true });
    breaker.record("failure", true);
    expect(breaker.state).toBe("open");
    expect(breaker.admit()).toMatchObject({ ok: false, retryAfterMs: 1_000 });
  });

  it("counts neither a neutral outcome nor lets it hold the probe slot", () => {
    const { breaker, clock } = breakerWithClock(2, 1_000);
    breaker.record("failure", false);
    breaker.record("neutral", false);
    expect(breaker.consecutiveFailures).toBe(1);
    breaker.record("failure", false);
    expect(breaker.state).toBe("open");
    clock.t += 1_000;
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
    breaker.record("neutral", true);
    expect(breaker.state).toBe("half_open");
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
  });

  it("lets another call probe when a probe never reports back", () => {
    const { breaker, clock } = breakerWithClock(1, 1_000, 500);
    fail(breaker, 1);
    clock.t += 1_000;
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
    clock.t += 499;
    expect(breaker.admit().ok).toBe(false);
    clock.t += 1;
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
  });

  it("with the default settings, probes again within a minute of opening", () => {
    const { breaker, clock } = breakerWithClock(5, 15_000, 10_000);
    fail(breaker, 5);
    const refused = breaker.admit();
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.retryAfterMs).toBeLessThanOrEqual(15_000);
    clock.t += 15_000;
    expect(breaker.admit()).toEqual({ ok: true, probe: true });
  });
});
