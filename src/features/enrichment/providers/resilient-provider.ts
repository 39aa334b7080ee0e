/**
 * Wraps an adapter with what keeps Velvet polite and alive when a provider is slow, rate-limited
 * or down. In order, a lookup:
 * 1. is refused at once while the provider asked us to pause (a 429's Retry-After) or its
 *    circuit is open: `transient` with retryAfterMs, no network call;
 * 2. waits for one of `concurrency` slots (the caller's signal ends the wait);
 * 3. is admitted by the circuit breaker (in half-open, as the single probe);
 * 4. takes a rate-limit slot, waiting at most `maxRateWaitMs`, else `transient` with retryAfterMs:
 *    from the slots every process shares (`shared`, shared-limits/shared-slots.ts: calls spaced
 *    60,000 / ratePerMinute ms apart across the cluster), or from this process's token bucket
 *    when there are none or the database cannot be reached;
 * 5. calls the adapter under a `timeoutMs` deadline joined to the caller's signal; a deadline
 *    is enforced even on an adapter that ignores its signal, and a thrown error becomes a value;
 * 6. reports the outcome to the breaker (see circuit-breaker.ts for what counts) and, on a 429,
 *    pauses the provider for its Retry-After (and pushes the shared next slot as far).
 * The timeout covers only the provider call: time spent queueing is local congestion, not a
 * provider failure, and must not open the circuit.
 */

import type { SharedSlots } from "../../shared-limits/shared-slots.js";
import { callWithDeadline } from "./call-with-deadline.js";
import { type BreakerState, type CallOutcome, createCircuitBreaker } from "./circuit-breaker.js";
import { createConcurrencyLimiter } from "./concurrency-limiter.js";
import type {
  EnrichmentProvider,
  ProviderName,
  ProviderQuery,
  ProviderResult,
} from "./provider.js";
import {
  type Admission,
  createRateLimiter,
  DEFAULT_MAX_RATE_WAIT_MS,
  sleep,
} from "./rate-limiter.js";

export interface ResilienceSettings {
  timeoutMs: number;
  concurrency: number;
  ratePerMinute: number;
  breakerFailures: number;
  breakerCooldownMs: number;
  /** The longest a lookup waits for a rate-limit token before it is refused (default 2 s). */
  maxRateWaitMs?: number;
  now?: () => number;
  log?: ProviderLog;
  /** Told every time the circuit changes state (metrics). */
  onCircuitChange?: (provider: ProviderName, state: BreakerState) => void;
  /** Slots shared by every process; without them the rate is this process's alone. */
  shared?: SharedSlots;
}

/** The slice of a pino logger the wrapper uses. */
export interface ProviderLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface ProviderHealth {
  provider: ProviderName;
  breaker: BreakerState;
  consecutiveFailures: number;
  inFlight: number;
  waiting: number;
  pausedForMs: number;
}

export interface ResilientProvider extends EnrichmentProvider {
  health(): ProviderHealth;
}

export function withResilience(
  inner: EnrichmentProvider,
  settings: ResilienceSettings,
): ResilientProvider {
  const provider = inner.name;
  const now = settings.now ?? Date.now;
  const slots = createConcurrencyLimiter(settings.concurrency);
  const rate = createRateLimiter({
    ratePerMinute: settings.ratePerMinute,
    maxWaitMs: settings.maxRateWaitMs,
    now,
  });
  const breaker = createCircuitBreaker({
    failureThreshold: settings.breakerFailures,
    cooldownMs: settings.breakerCooldownMs,
    probeTimeoutMs: settings.timeoutMs,
    now,
    onChange: ({ from, to, consecutiveFailures }) => {
      settings.onCircuitChange?.(provider, to);
      const details = {
        provider,
        from,
        to,
        consecutiveFailures,
        cooldownMs: settings.breakerCooldownMs,
      };
      if (to === "open") settings.log?.warn(details, "provider circuit opened");
      else
        settings.log?.info(details, `provider circuit ${to === "closed" ? "closed" : "half-open"}`);
    },
  });
  let pausedUntil = 0;
  const sharedName = `provider:${provider}`;

  const refused = (
    error: string,
    retryAfterMs: number,
    cause: "rate_limited" | "circuit_open",
  ): ProviderResult => ({
    kind: "transient",
    provider,
    httpStatus: null,
    error,
    retryAfterMs,
    cause,
  });
  const aborted = (): ProviderResult => ({
    kind: "transient",
    provider,
    httpStatus: null,
    error: "aborted by the caller",
    cause: "aborted",
  });
  const paused = (): ProviderResult | null => {
    const left = pausedUntil - now();
    return left > 0
      ? refused(`paused after the provider's 429 for ${left} ms`, left, "rate_limited")
      : null;
  };

  async function lookup(query: ProviderQuery, signal: AbortSignal): Promise<ProviderResult> {
    if (signal.aborted) return aborted();
    const early = paused() ?? refusal(breaker.peek());
    if (early) return early;
    const release = await slots.acquire(signal);
    if (release === null) return aborted();
    try {
      const pause = paused();
      if (pause) return pause;
      const admission = breaker.admit();
      if (!admission.ok) return refused(admission.reason, admission.retryAfterMs, "circuit_open");
      const token = await takeSlot(signal);
      if (!token.ok) {
        breaker.record("neutral", admission.probe);
        if (signal.aborted) return aborted();
        const error = `local rate limit of ${rateText(settings.ratePerMinute)} reached`;
        return refused(error, token.retryAfterMs, "rate_limited");
      }
      const started = performance.now();
      const answer = await callWithDeadline(inner, query, signal, settings.timeoutMs);
      const result = { ...answer, durationMs: performance.now() - started };
      breaker.record(outcomeOf(result), admission.probe);
      if (result.kind === "transient" && result.cause === "rate_limited" && result.retryAfterMs) {
        pausedUntil = Math.max(pausedUntil, now() + result.retryAfterMs);
        await settings.shared?.defer(sharedName, result.retryAfterMs);
      }
      return result;
    } finally {
      release();
    }
  }

  async function takeSlot(signal: AbortSignal): Promise<Admission> {
    const slot = await settings.shared?.reserve({
      name: sharedName,
      intervalMs: 60_000 / settings.ratePerMinute,
      maxWaitMs: settings.maxRateWaitMs ?? DEFAULT_MAX_RATE_WAIT_MS,
    });
    if (slot === undefined || slot === null) return rate.acquire(signal);
    if (slot.kind === "later") return { ok: false, retryAfterMs: slot.delayMs };
    if (slot.waitMs > 0 && !(await sleep(slot.waitMs, signal)))
      return { ok: false, retryAfterMs: 0 };
    return { ok: true };
  }

  function refusal(admission: ReturnType<typeof breaker.peek>): ProviderResult | null {
    return admission.ok ? null : refused(admission.reason, admission.retryAfterMs, "circuit_open");
  }

  return {
    name: provider,
    lookup,
    health: () => ({
      provider,
      breaker: breaker.state,
      consecutiveFailures: breaker.consecutiveFailures,
      inFlight: slots.inFlight,
      waiting: slots.waiting,
      pausedForMs: Math.max(0, pausedUntil - now()),
    }),
  };
}

/** What a result says about the provider's health (see the breaker's glossary). */
function outcomeOf(result: ProviderResult): CallOutcome {
  if (result.kind !== "transient") return "success";
  const neutral =
    result.cause === "rate_limited" || result.cause === "pending" || result.cause === "aborted";
  return neutral ? "neutral" : "failure";
}

/** "100/min", or "100/hour" for a quota under one a minute or not whole a minute (Gravatar's). */
function rateText(ratePerMinute: number): string {
  if (Number.isInteger(ratePerMinute)) return `${ratePerMinute}/min`;
  return `${Math.round(ratePerMinute * 60)}/hour`;
}
