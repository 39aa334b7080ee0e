/**
 * A token bucket per provider: `ratePerMinute` tokens refill evenly, and the bucket holds a tenth
 * of a minute's allowance (at least one), so a short burst passes while the sustained rate stays
 * at the limit. A caller that would wait longer than `maxWaitMs` for its token is told when to
 * come back instead of queueing (the job is rescheduled rather than holding a worker slot).
 * A waiting caller has reserved its token; if it is aborted the token is given back.
 */

export interface RateLimiterSettings {
  ratePerMinute: number;
  /** The longest a caller waits for a token before being refused (default 2 s). */
  maxWaitMs?: number;
  now?: () => number;
}

export type Admission = { ok: true } | { ok: false; retryAfterMs: number };

export const DEFAULT_MAX_RATE_WAIT_MS = 2_000;

export interface RateLimiter {
  /** Waits for a token (at most maxWaitMs) or says when one will be free. */
  acquire(signal: AbortSignal): Promise<Admission>;
  readonly capacity: number;
}

export function createRateLimiter(settings: RateLimiterSettings): RateLimiter {
  const now = settings.now ?? Date.now;
  const maxWaitMs = settings.maxWaitMs ?? DEFAULT_MAX_RATE_WAIT_MS;
  const perMs = settings.ratePerMinute / 60_000;
  const capacity = Math.max(1, Math.ceil(settings.ratePerMinute / 10));
  // Tokens may go negative: each waiting caller holds a reservation of one token.
  let tokens = capacity;
  let updatedAt = now();

  function refill(): void {
    const t = now();
    tokens = Math.min(capacity, tokens + (t - updatedAt) * perMs);
    updatedAt = t;
  }

  return {
    capacity,
    async acquire(signal: AbortSignal): Promise<Admission> {
      refill();
      if (tokens >= 1) {
        tokens -= 1;
        return { ok: true };
      }
      const waitMs = Math.ceil((1 - tokens) / perMs);
      if (waitMs > maxWaitMs) return { ok: false, retryAfterMs: waitMs };
      tokens -= 1;
      const waited = await sleep(waitMs, signal);
      if (!waited) {
        refill();
        tokens = Math.min(capacity, tokens + 1);
        return { ok: false, retryAfterMs: 0 };
      }
      return { ok: true };
    },
  };
}

/** Resolves true after `ms`, or false as soon as the signal aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
