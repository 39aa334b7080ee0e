/**
 * Glossary of the circuit breaker (one per provider, per process):
 *
 * - closed: calls go through; consecutive failures are counted and any answer resets the count.
 * - failure: a call the provider did not answer usefully: network error, timeout, 408, 5xx.
 *   A 429, a FullContact 202 or a caller's own abort is *neutral*: it neither counts nor resets,
 *   because it says nothing about whether the provider is up (429s pause the provider instead).
 * - open: after `failureThreshold` consecutive failures; calls are refused at once, with no
 *   network call, and told to come back when the cooldown ends.
 * - half-open: once the cooldown has passed, the next call is let through as the probe while
 *   others are refused; the probe's answer closes the breaker, its failure opens it for another
 *   cooldown. A probe that never reports (a bug) stops blocking after `probeTimeoutMs`.
 *
 * Time comes from `now()` only, so the breaker has no timers and tests can move the clock.
 */

export type BreakerState = "closed" | "open" | "half_open";

export interface CircuitBreakerSettings {
  failureThreshold: number;
  cooldownMs: number;
  /** How long a probe may take before another call may probe instead. */
  probeTimeoutMs: number;
  now?: () => number;
  onChange?: (change: {
    from: BreakerState;
    to: BreakerState;
    consecutiveFailures: number;
  }) => void;
}

export type BreakerAdmission =
  | { ok: true; probe: boolean }
  | { ok: false; retryAfterMs: number; reason: string };

export type CallOutcome = "success" | "failure" | "neutral";

export interface CircuitBreaker {
  /** Whether a call may go now; in half-open the admitted call becomes the probe. */
  admit(): BreakerAdmission;
  /** Like admit, but changes nothing: used to refuse early, before queueing. */
  peek(): BreakerAdmission;
  record(outcome: CallOutcome, probe: boolean): void;
  readonly state: BreakerState;
  readonly consecutiveFailures: number;
}

export function createCircuitBreaker(settings: CircuitBreakerSettings): CircuitBreaker {
  const now = settings.now ?? Date.now;
  let state: BreakerState = "closed";
  let failures = 0;
  let openUntil = 0;
  let openedAfter = 0;
  let probeStartedAt: number | null = null;

  function moveTo(to: BreakerState): void {
    if (to === state) return;
    const from = state;
    state = to;
    settings.onChange?.({ from, to, consecutiveFailures: failures });
  }

  function open(): void {
    openUntil = now() + settings.cooldownMs;
    openedAfter = failures;
    probeStartedAt = null;
    moveTo("open");
  }

  function check(commit: boolean): BreakerAdmission {
    const t = now();
    if (state === "closed") return { ok: true, probe: false };
    if (state === "open" && t < openUntil) {
      const reason = `circuit open after ${openedAfter} consecutive failures`;
      return { ok: false, retryAfterMs: Math.max(1, openUntil - t), reason };
    }
    // The cooldown is over (half-open): one probe at a time.
    const probeDeadline = probeStartedAt === null ? null : probeStartedAt + settings.probeTimeoutMs;
    if (probeDeadline !== null && t < probeDeadline) {
      return {
        ok: false,
        retryAfterMs: Math.max(1, probeDeadline - t),
        reason: "circuit half-open, a probe is in flight",
      };
    }
    if (commit) {
      moveTo("half_open");
      probeStartedAt = t;
    }
    return { ok: true, probe: true };
  }

  return {
    get state() {
      return state;
    },
    get consecutiveFailures() {
      return failures;
    },
    admit: () => check(true),
    peek: () => check(false),
    record(outcome: CallOutcome, probe: boolean): void {
      if (outcome === "neutral") {
        if (probe) probeStartedAt = null; // let another call probe
        return;
      }
      if (outcome === "success") {
        failures = 0;
        if (probe) {
          probeStartedAt = null;
          moveTo("closed");
        }
        return;
      }
      failures += 1;
      if (probe) open();
      else if (state === "closed" && failures >= settings.failureThreshold) open();
    },
  };
}
