import { describe, expect, it } from "vitest";
import { lowerBound } from "./ranges.js";

describe("lowerBound", () => {
  it.each([
    ["1001-5000", 1001],
    ["10001+", 10001],
    ["1-10", 1],
    ["100,000-150,000", 100_000],
    [">250,000", 250_000],
    ["<20,000", 0],
    ["$100,000 - $149,999", 100_000],
    ["$1,000,000+", 1_000_000],
    ["Less than $20,000", 0],
    ["Under $10,000", 0],
    ["$10M-$25M", 10_000_000],
    ["$250K - $499K", 250_000],
    ["$1B+", 1_000_000_000],
    ["$2.5 million", 2_500_000],
    ["-$2,499 - $2,499", -2_499],
    ["USD 75,000", 75_000],
  ])("%s → %d", (text, expected) => {
    expect(lowerBound(text)).toBe(expected);
  });

  it.each([[""], ["unknown"], ["self-employed"], [null], [undefined]])("%s → undefined", (text) => {
    expect(lowerBound(text)).toBeUndefined();
  });
});
