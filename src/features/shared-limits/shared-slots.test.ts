/**
 * A process's side of shared slots, over a backend the test scripts (the table's arithmetic has
 * its own test on both engines): a lease is spent slot by slot without asking again, the next one
 * is asked ahead before the slots in hand run out (never for a one-slot lease), a kept slot
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

/**
 * Hands out slots as the table does (shared-limits-table.ts): a lease starts at the name's next
 * free slot or now, whichever is later, and moves the next free slot past it.
 */
function tableLike(delayMs = 0) {
  let nextAt = 0;
  return async (ask: SlotAsk): Promise<SlotGrant> => {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    const firstAt = Math.max(nextAt, ask.now);
    if (firstAt > ask.now + ask.maxWaitMs) return { ok: false, nextAt };
    nextAt = firstAt + ask.n * ask.intervalMs;
    return { ok: true, firstAt };
  };
}

const request = { name: "provider:fullcontact", intervalMs: 50, maxWaitMs: 2000 };

describe("shared slots", () => {
  it("spends a lease of about 200 ms of the rate slot by slot, asking once", async () => {
    const t = 1_000_000;
    const { backend, asks } = scriptedBackend(tableLike());
    const slots = createSharedSlots({ backend, now: () => t });
    const waits = [];
    for (let i = 0; i < 3; i++) waits.push(await slots.reserve(request));
    expect(asks).toHaveLength(1);
    expect(asks[0]?.n).toBe(4);
    expect(waits).toEqual([0, 50, 100].map((waitMs) => ({ kind: "now", waitMs })));
    // The last slot in hand: the next lease is asked for now, in the background.
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 150 });
    expect(asks).toHaveLength(2);
  });

  it("asks the next lease ahead, so a caller in steady use never waits for the table", async () => {
    let t = 1_000_000;
    const { backend, asks } = scriptedBackend(tableLike(5));
    const slots = createSharedSlots({ backend, now: () => t });
    for (let i = 0; i < 2; i++) await slots.reserve(request);
    // The slots in hand (+100, +150) reach 150 ms ahead, more than half a lease.
    expect(asks).toHaveLength(1);
    // 60 ms on, the one left reaches 90 ms ahead: the next lease is asked as this slot is spent.
    t += 60;
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 40 });
    expect(asks).toHaveLength(2);
    await new Promise((r) => setTimeout(r, 20));
    // It starts where the first ended: the caller at that instant takes its first slot at once.
    t = 1_000_200;
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 0 });
    expect(asks[1]).toMatchObject({ n: 4, now: 1_000_060 });
    expect(asks).toHaveLength(2);
  });

  it("waits for a lease asked ahead rather than asking a second one", async () => {
    const t = 1_000_000;
    const { backend, asks } = scriptedBackend(tableLike(10));
    const slots = createSharedSlots({ backend, now: () => t });
    await Promise.all(Array.from({ length: 4 }, () => slots.reserve(request)));
    // The lease is spent and the next is on its way: this caller waits for it.
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 200 });
    expect(asks).toHaveLength(2);
  });

  it("never asks ahead for a name leased one slot at a time (a slow rate)", async () => {
    let t = 1_000_000;
    const { backend, asks } = scriptedBackend(tableLike());
    const slots = createSharedSlots({ backend, now: () => t });
    const slow = { name: "chat:hook", intervalMs: 1000, maxWaitMs: 2000 };
    expect(await slots.reserve(slow)).toEqual({ kind: "now", waitMs: 0 });
    expect(asks).toHaveLength(1);
    t += 5000;
    expect(await slots.reserve(slow)).toEqual({ kind: "now", waitMs: 0 });
    expect(asks).toHaveLength(2);
  });

  it("keeps no slot of a lease under way before the instant a 429 pushed the name to", async () => {
    const t = 1_000_000;
    let answer: (grant: SlotGrant) => void = () => {};
    const { backend, asks } = scriptedBackend(async (ask) => {
      if (asks.length === 1) return { ok: true, firstAt: ask.now };
      return new Promise<SlotGrant>((resolve) => {
        answer = resolve;
      });
    });
    const slots = createSharedSlots({ backend, now: () => t });
    await Promise.all(Array.from({ length: 4 }, () => slots.reserve(request)));
    expect(asks).toHaveLength(2); // asked ahead, not answered yet
    await slots.defer(request.name, 30_000);
    answer({ ok: true, firstAt: t + 200 });
    await new Promise((r) => setTimeout(r, 0));
    // The lease came back with slots before the 429's instant: none of them is spent.
    expect(await slots.reserve(request)).toEqual({ kind: "later", delayMs: 30_000 });
  });

  it("drops kept slots that have gone by instead of spending them late", async () => {
    let t = 1_000_000;
    const { backend, asks } = scriptedBackend(tableLike());
    const slots = createSharedSlots({ backend, now: () => t });
    await slots.reserve(request);
    t += 130; // slots at +50 and +100 are past by more than half an interval; +150 is ahead
    expect(await slots.reserve(request)).toEqual({ kind: "now", waitMs: 20 });
    expect(asks).toHaveLength(2); // the next, asked ahead
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
    const got = await Promise.all(Array.from({ length: 3 }, () => slots.reserve(request)));
    expect(asks).toHaveLength(1);
    expect(
      got.map((r) => (r?.kind === "now" ? r.waitMs : null)).sort((a, b) => (a ?? 0) - (b ?? 0)),
    ).toEqual([0, 50, 100]);
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
