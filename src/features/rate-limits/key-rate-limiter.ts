/**
 * The per-key limit on POST /api/v1/orders counted in this process's memory alone. Each key has
 * a fixed window of one minute that starts with its first request; the window's count is
 * compared with the key's limit, and a refused request does not count. It is what the shared
 * limiter (shared-key-rate-limiter.ts, which holds across processes) falls back to while the
 * database cannot be reached: then each process counts its own, up to N × the limit.
 *
 * Memory stays bounded by the keys seen in the last minute: ended windows are swept at most
 * once a minute, in the request that notices it is time.
 */
export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateDecision {
  allowed: boolean;
  /** The limit in force for this key, per window. */
  limit: number;
  /** Requests left in the current window after this one. */
  remaining: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
}

export interface KeyRateLimiter {
  /** A decision at once, or (shared-key-rate-limiter.ts, waiting for a lease) a promise of one. */
  take(keyId: string, limit: number): RateDecision | Promise<RateDecision>;
  /** Keys with a live window (for tests and metrics). */
  readonly size: number;
}

interface Window {
  startedAt: number;
  count: number;
}

export function createKeyRateLimiter(now: () => number): KeyRateLimiter & {
  take(keyId: string, limit: number): RateDecision;
} {
  const windows = new Map<string, Window>();
  let nextSweepAt = 0;

  function sweep(t: number): void {
    nextSweepAt = t + RATE_LIMIT_WINDOW_MS;
    for (const [keyId, w] of windows) {
      if (t - w.startedAt >= RATE_LIMIT_WINDOW_MS) windows.delete(keyId);
    }
  }

  return {
    get size() {
      return windows.size;
    },
    take(keyId, limit) {
      const t = now();
      if (t >= nextSweepAt) sweep(t);
      let w = windows.get(keyId);
      if (w === undefined || t - w.startedAt >= RATE_LIMIT_WINDOW_MS) {
        w = { startedAt: t, count: 0 };
        windows.set(keyId, w);
      }
      const resetSeconds = Math.max(1, Math.ceil((w.startedAt + RATE_LIMIT_WINDOW_MS - t) / 1000));
      if (w.count >= limit) return { allowed: false, limit, remaining: 0, resetSeconds };
      w.count += 1;
      return { allowed: true, limit, remaining: limit - w.count, resetSeconds };
    },
  };
}
