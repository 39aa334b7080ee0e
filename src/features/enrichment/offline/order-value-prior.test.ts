import { describe, expect, it } from "vitest";
import { offlineReach } from "../../dashboard/html/enrichment-sources.js";
import { OFFLINE_FIRST_ORDER_EXAMPLE } from "../score/weights.js";
import { ORDER_VALUE_PRIOR, priorPercentile } from "./order-value-prior.js";

describe("the order-value prior", () => {
  it("is a log-normal with the published mean: median $78, 90th percentile $281, 99th $800", () => {
    const median = ORDER_VALUE_PRIOR.meanUsd / Math.exp(0.5);
    expect(priorPercentile(median)).toBe(50);
    expect(priorPercentile(281)).toBeCloseTo(90, 0);
    expect(priorPercentile(404)).toBeCloseTo(95, 0);
    expect(priorPercentile(800)).toBeCloseTo(99, 0);
    expect(priorPercentile(ORDER_VALUE_PRIOR.meanUsd)).toBeCloseTo(69.1, 1);
  });

  it("ranks small orders low, large ones high, and nothing at zero", () => {
    expect(priorPercentile(0)).toBe(0);
    expect(priorPercentile(10)).toBeLessThan(5);
    expect(priorPercentile(950)).toBeGreaterThan(99);
    expect(priorPercentile(2_950)).toBeGreaterThanOrEqual(99.9);
  });

  it("lets a large first order from a wealthy area pass the default threshold, and says so", () => {
    expect(OFFLINE_FIRST_ORDER_EXAMPLE).toEqual({
      orderUsd: 2_500,
      areaIncomeUsd: 250_000,
      score: 75,
    });
    expect(offlineReach(70)).toContain("an order of $2,500 or more");
    expect(offlineReach(70)).toContain("scores 75");
    expect(offlineReach(80)).toContain("Only a repeat customer");
    expect(offlineReach(95)).toContain("cannot pass your threshold of 95");
  });
});
