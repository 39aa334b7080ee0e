import { describe, expect, it } from "vitest";
import { labelledColumns, niceScale } from "./chart-scale.js";

describe("niceScale", () => {
  it("steps counts by 1, 2 or 5 × 10^n from 0 to at least the maximum", () => {
    expect(niceScale(0).ticks).toEqual([0, 1]);
    expect(niceScale(1).ticks).toEqual([0, 1]);
    expect(niceScale(3).ticks).toEqual([0, 1, 2, 3]);
    expect(niceScale(5).ticks).toEqual([0, 2, 4, 6]);
    expect(niceScale(7).ticks).toEqual([0, 2, 4, 6, 8]);
    expect(niceScale(37).ticks).toEqual([0, 10, 20, 30, 40]);
    expect(niceScale(100).ticks).toEqual([0, 50, 100]);
    expect(niceScale(1234)).toEqual({ max: 1500, ticks: [0, 500, 1000, 1500] });
  });

  it("steps amounts by cents when they are small", () => {
    expect(niceScale(0.13, { integer: false }).ticks).toEqual([0, 0.05, 0.1, 0.15]);
    expect(niceScale(0.3, { integer: false }).ticks).toEqual([0, 0.1, 0.2, 0.3]);
    expect(niceScale(12.5, { integer: false }).ticks).toEqual([0, 5, 10, 15]);
  });
});

describe("labelledColumns", () => {
  const DAYS = [1, 2, 7, 14, 28];
  it("names every day of a week, every week of a month, every fortnight of a quarter, back from the newest", () => {
    expect(labelledColumns(7, 7, DAYS)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(labelledColumns(30, 7, DAYS)).toEqual([1, 8, 15, 22, 29]);
    expect(labelledColumns(90, 7, DAYS)).toEqual([5, 19, 33, 47, 61, 75, 89]);
    expect(labelledColumns(0, 7, DAYS)).toEqual([]);
  });
});
