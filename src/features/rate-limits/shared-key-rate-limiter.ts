/**
 * The per-key limit held across every process on the database, without a database round trip
 * per request. Each key has a fixed window of one minute in `shared_limits` (starting with its
 * first request); a process leases a slice of it (`want`: a twentieth of the limit, less as the
 * window runs low, at least 1) in one statement, and answers from the slice in memory,
 * synchronously. When half a slice is spent it leases the next in the background, so a busy key
 * rarely waits; the first request of a key in a window waits for its lease. Once the window is
 * spent (every request of it leased, this process's slice used up) refusals are answered from
 * memory until the window ends. The window can be refused a little early: the unspent slices
 * other processes hold at its end (at most a few requests each, as slices shrink near the end).
 *
 * Headers: `r` is what the window had left at this process's last lease plus its own unspent
 * slice, so it can be high by what other processes took since; `t` is the shared window's end.
 *
 * When the table cannot be reached the per-process limiter answers (RETRY_SHARED_MS at a time,
 * logged once per outage): a database outage never turns the limiter into 500s.
 */
import { withTimeout } from "../../lib/with-timeout.js";
import type { WindowAsk, WindowLease } from "../shared-limits/shared-limits-table.js";
import { RETRY_SHARED_MS, TAKE_TIMEOUT_MS } from "../shared-limits/shared-slots.js";
import {
  createKeyRateLimiter,
  type KeyRateLimiter,
  RATE_LIMIT_WINDOW_MS,
  type RateDecision,
} from "./key-rate-limiter.js";

export interface SharedKeyRateLimiterOptions {
  takeWindow(ask: WindowAsk): Promise<WindowLease>;
  now: () => number;
  /** Told when the table stops or starts answering (to log once per outage). */
  onReachability?: (reachable: boolean, error?: unknown) => void;
}

interface KeyState {
  limit: number;
  windowEndsAt: number;
  /** Requests of this process's slice not answered yet. */
  left: number;
  /** Requests of the window leased by all processes, as of this process's last lease. */
  used: number;
  lastLease: number;
  leasing: Promise<boolean> | null;
}

/** The first slice of a window: a twentieth of the limit. */
export function sliceSize(limit: number): number {
  return Math.max(1, Math.ceil(limit / 20));
}

export function createSharedKeyRateLimiter(options: SharedKeyRateLimiterOptions): KeyRateLimiter {
  const { now } = options;
  const local = createKeyRateLimiter(now);
  const states = new Map<string, KeyState>();
  let unreachableUntil = 0;
  let reachable = true;
  let nextSweepAt = 0;

  const mark = (ok: boolean, error?: unknown) => {
    if (ok !== reachable) options.onReachability?.(ok, error);
    reachable = ok;
    if (!ok) unreachableUntil = now() + RETRY_SHARED_MS;
  };

  function decision(s: KeyState, allowed: boolean, t: number): RateDecision {
    const remaining = allowed ? Math.max(0, s.limit - s.used + s.left) : 0;
    const resetSeconds = Math.max(1, Math.ceil((s.windowEndsAt - t) / 1000));
    return { allowed, limit: s.limit, remaining, resetSeconds };
  }

  /** Leases more of the window; false when the table could not be reached. */
  function lease(keyId: string, s: KeyState): Promise<boolean> {
    if (s.leasing !== null) return s.leasing;
    const base = sliceSize(s.limit);
    const want = s.windowEndsAt === 0 ? base : Math.min(base, Math.ceil((s.limit - s.used) / 10));
    const ask = {
      name: `key:${keyId}`,
      want,
      limit: s.limit,
      windowMs: RATE_LIMIT_WINDOW_MS,
      now: now(),
    };
    s.leasing = withTimeout(options.takeWindow(ask), TAKE_TIMEOUT_MS).then(
      (got) => {
        s.leasing = null;
        mark(true);
        if (got.windowEndsAt !== s.windowEndsAt) s.left = 0;
        s.windowEndsAt = got.windowEndsAt;
        s.left += got.granted;
        s.used = got.used;
        s.lastLease = got.granted;
        return true;
      },
      (error: unknown) => {
        s.leasing = null;
        mark(false, error);
        return false;
      },
    );
    return s.leasing;
  }

  function spend(keyId: string, s: KeyState, t: number): RateDecision {
    s.left -= 1;
    if (s.left <= s.lastLease / 2 && s.used < s.limit) void lease(keyId, s);
    return decision(s, true, t);
  }

  function stateOf(keyId: string, limit: number, t: number): KeyState {
    if (t >= nextSweepAt) {
      nextSweepAt = t + RATE_LIMIT_WINDOW_MS;
      for (const [id, s] of states)
        if (t >= s.windowEndsAt && s.leasing === null) states.delete(id);
    }
    let s = states.get(keyId);
    if (s === undefined || s.limit !== limit || (s.windowEndsAt !== 0 && t >= s.windowEndsAt)) {
      s = { limit, windowEndsAt: 0, left: 0, used: 0, lastLease: 0, leasing: null };
      states.set(keyId, s);
    }
    return s;
  }

  async function slow(keyId: string, s: KeyState, limit: number): Promise<RateDecision> {
    // Each turn either spends, refuses, or falls back: a lease grants something, or says the
    // window is spent, or fails.
    for (;;) {
      const ok = await lease(keyId, s);
      const t = now();
      if (!ok) return local.take(keyId, limit);
      if (s.left > 0) return spend(keyId, s, t);
      if (s.used >= s.limit) return decision(s, false, t);
    }
  }

  return {
    get size() {
      return states.size + local.size;
    },
    take(keyId, limit) {
      const t = now();
      if (t < unreachableUntil) return local.take(keyId, limit);
      const s = stateOf(keyId, limit, t);
      if (s.left > 0) return spend(keyId, s, t);
      if (s.windowEndsAt > t && s.used >= s.limit && s.leasing === null)
        return decision(s, false, t);
      return slow(keyId, s, limit);
    },
  };
}
