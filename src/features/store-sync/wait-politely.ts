/**
 * Honouring a platform's "slow down": a short wait happens in the job (the page is asked again
 * after it); a long one ends the sync run, whose job comes back after the wait with the cursor
 * saved, so a worker slot is not held for minutes.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { PlatformError } from "./platform-http.js";

/** Waits up to this long inside a run; longer waits reschedule the job. */
export const MAX_INLINE_WAIT_MS = 10_000;
/** Slow-downs in a row for one page before the run gives the worker back. */
const MAX_WAITS_PER_PAGE = 5;

export async function withWaits<T>(
  attempt: () => Promise<T>,
  signal: AbortSignal,
  onWait?: (delayMs: number) => void,
): Promise<T> {
  for (let waits = 0; ; waits++) {
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof PlatformError) || error.failure.kind !== "wait") throw error;
      const { delayMs } = error.failure;
      if (delayMs > MAX_INLINE_WAIT_MS || waits >= MAX_WAITS_PER_PAGE) throw error;
      onWait?.(delayMs);
      await sleep(delayMs, undefined, { signal });
    }
  }
}

/** Waits before a call when the platform said how much room is left (Shopify's cost bucket). */
export async function waitForRoom(delayMs: number, signal: AbortSignal): Promise<void> {
  if (delayMs <= 0) return;
  if (delayMs > MAX_INLINE_WAIT_MS) {
    throw new PlatformError({
      kind: "wait",
      delayMs,
      message: `waiting ${Math.ceil(delayMs / 1000)} s for the platform's rate limit`,
    });
  }
  await sleep(delayMs, undefined, { signal });
}
