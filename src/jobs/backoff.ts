/**
 * The wait before the next attempt after a failure: exponential with full jitter
 * (random(0, min(maxMs, baseMs · 2^(retry - 1)))), so that jobs which failed together, say
 * during a provider outage, do not all come back in the same instant.
 */
import type { BackoffPolicy } from "./task.js";

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1000, maxMs: 5 * 60_000 };

/** `attempt` is the attempt that just failed, from 1. `random` returns [0, 1). */
export function backoffDelayMs(
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  // The exponent is capped so a large attempt count cannot overflow to Infinity.
  const exponent = Math.min(Math.max(attempt, 1) - 1, 30);
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  return Math.floor(random() * ceiling);
}
