/**
 * A process's side of shared slots, over a backend the test scripts (the table's arithmetic has
 * its own test on both engines): a lease is spent slot by slot without asking again, a kept slot
 * that has gone by is dropped rather than spent late, "later" when the next slot is too far, and
 * `null` (fall back to the local limit) while the backend fails, asked again only after a pause.
 */
import { describe, expect, it } from "vitest";
import type { SlotAsk, SlotGrant } from "./shared-limits-table.js";
import { createSharedSlots, RETRY_SHARED_MS } from "./shared-slots.js";

function scriptedBackend(answer: (ask: SlotAsk) => Promise<SlotGrant>) {
  const asks: SlotAsk[] = [];
  const deferred: Array<[string, number]> = [];
  return {
    asks,
    deferred,
    backend: {
      take: (ask: SlotAsk) => {
        asks.push(ask);
        return answer(ask);
      },
      defer: async (name: string, until: number) => {
        deferred.push([name, until]);
      },
    },
  };
}

const request = { name: "provider:fullcontact", intervalMs: 50, maxWaitMs: 2000 };

describe("shared slots", () => {
  it("spends a lease of about 200 ms of the rate slot by slot, asking once", async () => {
    let t = 1_000_000;
    const { backend, asks } = scriptedBackend(async (ask) => ({ ok: true, firstAt: ask.now }));
    const slots = createSharedSlots({ backend, now: () => t });
    const waits = [];
    for (let i = 0; i < 4; i++) waits.push(await slots.reserve(request));
    expect(asks).toHaveLength(1);
    expect(asks[0]?.n).toBe(4);
    expect(waits).toEqual([0, 50, 100, 150].map((waitMs) => ({ kind: "now", waitMs })));
    // The next lease is asked for once those are spent.
    t += 200;
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 0 });
    expect(asks).toHaveLength(2);
  });

  it("drops kept slots that have gone by instead of spending them late", async () => {
    let t = 1_000_000;
    const { backend, asks } = scriptedBackend(async (ask) => ({ ok: true, firstAt: ask.now }));
    const slots = createSharedSlots({ backend, now: () => t });
    await slots.reserve(request);
    t += 130; // slots at +50 and +100 are past by more than half an interval; +150 is ahead
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 20 });
    expect(asks).toHaveLength(1);
  });

  it("says when to come back when the next slot is further than the caller waits", async () => {
    const t = 1_000_000;
    const { backend, asks } = scriptedBackend(async () => ({ ok: false, nextAt: t + 7_000 }));
    const slots = createSharedSlots({ backend, now: () => t });
    expect(await slots.reserve(request)).toEqual({ kind: "later", delayMs: 7_000 });
    // The next slot only moves later: the callers after are told without asking.
    expect(await slots.reserve(request)).toEqual({ kind: "later", delayMs: 7_000 });
    expect(asks).toHaveLength(1);
  });

  it("asks one lease at a time per name; callers meanwhile share it", async () => {
    const t = 1_000_000;
    const { backend, asks } = scriptedBackend(async (ask) => {
      await new Promise((r) => setTimeout(r, 10));
      return { ok: true, firstAt: ask.now };
    });
    const slots = createSharedSlots({ backend, now: () => t });
    const got = await Promise.all(Array.from({ length: 4 }, () => slots.reserve(request)));
    expect(asks).toHaveLength(1);
    expect(
      got.map((r) => (r?.kind === "now" ? r.waitMs : null)).sort((a, b) => (a ?? 0) - (b ?? 0)),
    ).toEqual([0, 50, 100, 150]);
  });

  it("answers null while the table cannot be reached, says so once, and tries again later", async () => {
    let t = 1_000_000;
    let up = false;
    const { backend, asks } = scriptedBackend(async (ask) => {
      if (!up) throw new Error("connect ECONNREFUSED");
      return { ok: true, firstAt: ask.now };
    });
    const said: boolean[] = [];
    const slots = createSharedSlots({ backend, now: () => t, onReachability: (r) => said.push(r) });
    expect(await slots.reserve(request)).toBeNull();
    expect(await slots.reserve(request)).toBeNull();
    expect(asks).toHaveLength(1);
    up = true;
    t += RETRY_SHARED_MS;
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 0 });
    expect(said).toEqual([false, true]);
  });

  it("pushes the shared next slot for a 429 and forgets the slots it kept", async () => {
    const t = 1_000_000;
    const { backend, asks, deferred } = scriptedBackend(async (ask) => ({
      ok: true,
      firstAt: ask.now,
    }));
    const slots = createSharedSlots({ backend, now: () => t });
    await slots.reserve(request);
    await slots.defer(request.name, 30_000);
    expect(deferred).toEqual([[request.name, t + 30_000]]);
    // This process knows without asking that nothing is free before then.
    expect(await slots.reserve(request)).toEqual({ kind: "later", delayMs: 30_000 });
    expect(await slots.reserve({ ...request, maxWaitMs: 60_000 })).toEqual({
      kind: "now",
      waitMs: 0,
    });
    expect(asks).toHaveLength(2);
  });
});
