import { describe, expect, it } from "vitest";
import { createConcurrencyLimiter } from "./concurrency-limiter.js";

const never = new AbortController().signal;

describe("concurrency limiter", () => {
  it("admits up to the limit and hands freed slots to waiters in order", async () => {
    const limiter = createConcurrencyLimiter(2);
    const a = await limiter.acquire(never);
    const b = await limiter.acquire(never);
    const order: string[] = [];
    const c = limiter.acquire(never).then((release) => {
      order.push("c");
      return release;
    });
    const d = limiter.acquire(never).then((release) => {
      order.push("d");
      return release;
    });
    expect(limiter.inFlight).toBe(2);
    expect(limiter.waiting).toBe(2);
    a?.();
    a?.(); // releasing twice frees one slot only
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    expect(limiter.waiting).toBe(1);
    b?.();
    const releaseD = await d;
    expect(order).toEqual(["c", "d"]);
    releaseC?.();
    releaseD?.();
    expect(limiter.inFlight).toBe(0);
  });

  it("drops a waiter whose signal aborts", async () => {
    const limiter = createConcurrencyLimiter(1);
    const held = await limiter.acquire(never);
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    expect(await waiting).toBeNull();
    expect(limiter.waiting).toBe(0);
    held?.();
    expect(limiter.inFlight).toBe(0);
  });
});
