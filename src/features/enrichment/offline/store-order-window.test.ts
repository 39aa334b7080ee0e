import { describe, expect, it } from "vitest";
import { countBelowAndEqual } from "./store-order-window.js";

describe("countBelowAndEqual", () => {
  const sorted = [1, 2, 2, 2, 5, 10.5];
  it.each([
    [0.5, 0, 0],
    [1, 0, 1],
    [2, 1, 3],
    [3, 4, 0],
    [10.5, 5, 1],
    [11, 6, 0],
  ])("%d: %d below, %d equal", (value, below, equal) => {
    expect(countBelowAndEqual(sorted, value)).toEqual({ below, equal });
  });

  it("handles an empty window", () => {
    expect(countBelowAndEqual([], 3)).toEqual({ below: 0, equal: 0 });
  });
});
