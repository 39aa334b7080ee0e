import { describe, expect, it } from "vitest";
import { inBatches } from "./batches.js";

describe("inBatches", () => {
  it("stops at the first short batch", async () => {
    const sizes = [3, 3, 1, 3];
    let calls = 0;
    const result = await inBatches(async () => sizes[calls++] ?? 0, { size: 3 });
    expect(result).toEqual({ handled: 7, more: false });
    expect(calls).toBe(3);
  });

  it("hands back when the budget is spent or the signal aborts, saying more may remain", async () => {
    expect(await inBatches(async () => 3, { size: 3, budgetMs: 0 })).toEqual({
      handled: 3,
      more: true,
    });
    const controller = new AbortController();
    const aborted = await inBatches(
      async () => {
        controller.abort();
        return 3;
      },
      { size: 3, signal: controller.signal },
    );
    expect(aborted).toEqual({ handled: 3, more: true });
  });
});
