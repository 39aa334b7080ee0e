/**
 * The per-key limit on POST /api/v1/orders, kept in this process's memory: no database write
 * (or read) per request. Each key has a fixed window of one minute that starts with its first
 * request; the window's count is compared with the key's limit, and a refused request does not
 * count. Several processes each keep their own windows, so behind a balancer spreading a key's
 * requests over N processes the key can make up to N × the limit (docs/operating.md).
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
  take(keyId: string, limit: number): RateDecision;
  /** Keys with a live window (for tests and metrics). */
  readonly size: number;
}

interface Window {
  startedAt: number;
  count: number;
}

export function createKeyRateLimiter(now: () => number): KeyRateLimiter {
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
