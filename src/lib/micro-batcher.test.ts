import { describe, expect, it } from "vitest";
import { batcherPerOwner, createMicroBatcher } from "./micro-batcher.js";

/** A `run` the test answers by hand, recording every batch it was given. */
function manualRun() {
  const batches: number[][] = [];
  const pending: Array<(outcomes: PromiseSettledResult<string>[]) => void> = [];
  return {
    batches,
    run: (items: readonly number[]) =>
      new Promise<PromiseSettledResult<string>[]>((resolve) => {
        batches.push([...items]);
        pending.push(resolve);
      }),
    /** Answers the oldest batch still out: every item fulfilled with `item:n`. */
    answerNext() {
      const batch = batches[batches.length - pending.length] as number[];
      pending.shift()?.(batch.map((n) => ({ status: "fulfilled", value: `item:${n}` })));
    },
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("micro-batcher", () => {
  it("sends at once while a batch slot is free, and groups what arrives while all are out", async () => {
    const r = manualRun();
    const b = createMicroBatcher({ maxBatch: 10, maxInFlight: 2, run: r.run });
    const answers = [1, 2, 3, 4, 5].map((n) => b.submit(n));
    expect(r.batches).toEqual([[1], [2]]);
    expect(b.waiting).toBe(3);
    r.answerNext();
    await turn();
    expect(r.batches).toEqual([[1], [2], [3, 4, 5]]);
    expect(b.waiting).toBe(0);
    r.answerNext();
    r.answerNext();
    expect(await Promise.all(answers)).toEqual(["item:1", "item:2", "item:3", "item:4", "item:5"]);
  });

  it("never sends more than maxBatch items together, oldest first", async () => {
    const r = manualRun();
    const b = createMicroBatcher({ maxBatch: 2, maxInFlight: 1, run: r.run });
    const answers = [1, 2, 3, 4, 5, 6].map((n) => b.submit(n));
    r.answerNext();
    await turn();
    r.answerNext();
    await turn();
    r.answerNext();
    await turn();
    expect(r.batches).toEqual([[1], [2, 3], [4, 5], [6]]);
    r.answerNext();
    expect(await Promise.all(answers)).toHaveLength(6);
  });

  it("settles each item with its own outcome: one item's failure is its own", async () => {
    const b = createMicroBatcher<number, number>({
      maxBatch: 10,
      maxInFlight: 1,
      run: async (items) =>
        items.map((n) =>
          n % 2 === 0
            ? { status: "rejected", reason: new Error(`even ${n}`) }
            : { status: "fulfilled", value: n * 10 },
        ),
    });
    const outcomes = await Promise.allSettled([1, 2, 3, 4].map((n) => b.submit(n)));
    expect(outcomes.map((o) => (o.status === "fulfilled" ? o.value : o.reason.message))).toEqual([
      10,
      "even 2",
      30,
      "even 4",
    ]);
  });

  it("rejects every item of a batch whose run throws or rejects, and keeps serving", async () => {
    let calls = 0;
    const b = createMicroBatcher<number, number>({
      maxBatch: 10,
      maxInFlight: 1,
      run: (items) => {
        calls += 1;
        if (calls === 1) throw new Error("thrown");
        if (calls === 2) return Promise.reject(new Error("rejected"));
        return Promise.resolve(items.map((n) => ({ status: "fulfilled" as const, value: n })));
      },
    });
    await expect(b.submit(1)).rejects.toThrow("thrown");
    await expect(b.submit(2)).rejects.toThrow("rejected");
    await expect(b.submit(3)).resolves.toBe(3);
  });

  it("rejects the items a run forgot to answer", async () => {
    const b = createMicroBatcher<number, number>({
      maxBatch: 10,
      maxInFlight: 1,
      run: async () => [{ status: "fulfilled", value: 7 }],
    });
    const first = b.submit(1);
    const outcomes = await Promise.allSettled([first, b.submit(2), b.submit(3)]);
    expect(outcomes[0]).toEqual({ status: "fulfilled", value: 7 });
    expect(outcomes[1]).toEqual({ status: "fulfilled", value: 7 });
    expect(outcomes[2]?.status).toBe("rejected");
  });

  it("refuses limits below one", () => {
    const run = async () => [];
    expect(() => createMicroBatcher({ maxBatch: 0, maxInFlight: 1, run })).toThrow();
    expect(() => createMicroBatcher({ maxBatch: 1, maxInFlight: 0, run })).toThrow();
  });

  it("batcherPerOwner gives each owner one batcher of its own", async () => {
    const made: string[] = [];
    const per = batcherPerOwner((owner: { name: string }) => {
      made.push(owner.name);
      return {
        maxBatch: 4,
        maxInFlight: 1,
        run: async (items: readonly number[]) =>
          items.map((n) => ({ status: "fulfilled" as const, value: `${owner.name}:${n}` })),
      };
    });
    const a = { name: "a" };
    const b = { name: "b" };
    expect(per(a)).toBe(per(a));
    expect(per(a)).not.toBe(per(b));
    expect(await per(b).submit(1)).toBe("b:1");
    expect(made).toEqual(["a", "b"]);
  });
});
