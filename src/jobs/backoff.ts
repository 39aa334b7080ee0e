/**
 * The wait before the next attempt after a failure: exponential, capped at `maxMs`, with
 * jitter so that jobs which failed together, say during a provider outage, do not all come
 * back in the same instant. By default full jitter (random(0, ceiling)); a policy with `spread`
 * draws around the ceiling instead (ceiling · (1 ± spread)), for jobs whose retries must add up
 * to a known window of time (alerts: a draw near zero would spend an attempt for nothing).
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
  if (policy.spread === undefined) return Math.floor(random() * ceiling);
  const spread = Math.min(Math.max(policy.spread, 0), 1);
  return Math.floor(ceiling * (1 - spread + 2 * spread * random()));
}
