import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./rate-limiter.js";

const never = new AbortController().signal;

async function takeAll(
  limiter: ReturnType<typeof createRateLimiter>,
  n: number,
): Promise<boolean[]> {
  const results: boolean[] = [];
  for (let i = 0; i < n; i++) results.push((await limiter.acquire(never)).ok);
  return results;
}

describe("rate limiter (token bucket)", () => {
  it("lets a burst of a tenth of the minute's allowance through at once", async () => {
    const limiter = createRateLimiter({ ratePerMinute: 600, maxWaitMs: 0 });
    expect(limiter.capacity).toBe(60);
    expect(await takeAll(limiter, 60)).toEqual(Array(60).fill(true));
  });

  it("refuses with the time until the next token when the wait would be too long", async () => {
    const clock = { t: 0 };
    const limiter = createRateLimiter({ ratePerMinute: 60, maxWaitMs: 0, now: () => clock.t });
    expect(await takeAll(limiter, 6)).toEqual(Array(6).fill(true));
    expect(await limiter.acquire(never)).toEqual({ ok: false, retryAfterMs: 1_000 });
    clock.t += 400;
    expect(await limiter.acquire(never)).toEqual({ ok: false, retryAfterMs: 600 });
    clock.t += 600;
    expect(await limiter.acquire(never)).toEqual({ ok: true });
  });

  it("waits for a token that comes soon, reserving it so later callers queue behind", async () => {
    const limiter = createRateLimiter({ ratePerMinute: 600, maxWaitMs: 1_000 });
    await takeAll(limiter, 60);
    const started = Date.now();
    const [first, second] = await Promise.all([limiter.acquire(never), limiter.acquire(never)]);
    const elapsed = Date.now() - started;
    expect(first).toEqual({ ok: true });
    expect(second).toEqual({ ok: true });
    // Two tokens at 10 per second: the second caller waited for the second token.
    expect(elapsed).toBeGreaterThanOrEqual(180);
    expect(elapsed).toBeLessThan(1_000);
  });

  it("gives an aborted waiter's token back", async () => {
    const clock = { t: 0 };
    const limiter = createRateLimiter({ ratePerMinute: 60, maxWaitMs: 1_500, now: () => clock.t });
    await takeAll(limiter, 6);
    const first = new AbortController();
    const waiting = limiter.acquire(first.signal); // reserves the token due in 1 s
    first.abort();
    expect(await waiting).toMatchObject({ ok: false });
    const second = new AbortController();
    const secondWaiting = limiter.acquire(second.signal); // takes the refunded reservation
    // Had the first token not come back, this caller would be 3 s away instead of 2 s.
    expect(await limiter.acquire(never)).toEqual({ ok: false, retryAfterMs: 2_000 });
    second.abort();
    await secondWaiting;
  });
});
