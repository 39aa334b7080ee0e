/** Precision, its Wilson interval and the suggested threshold, on known values. */
import { describe, expect, it } from "vitest";
import { computePrecision, type JudgedScore, precisionAt, suggestThreshold } from "./precision.js";
import { precisionLine, suggestionLine } from "./precision-text.js";
import { wilsonInterval } from "./wilson-interval.js";

const judged = (score: number, verdict: "right" | "wrong", n = 1): JudgedScore[] =>
  Array.from({ length: n }, () => ({ score, verdict }));

describe("wilsonInterval (95 %)", () => {
  it("gives 69.9 %–97.2 % for 18 of 20", () => {
    const i = wilsonInterval(18, 20);
    expect(i?.low).toBeCloseTo(0.699, 3);
    expect(i?.high).toBeCloseTo(0.9721, 3);
  });

  it("stays inside 0–1 at the edges and is wide for few trials", () => {
    const all = wilsonInterval(20, 20);
    expect(all?.high).toBe(1);
    expect(all?.low).toBeCloseTo(0.8389, 3);
    const none = wilsonInterval(0, 5);
    expect(none?.low).toBe(0);
    expect(none?.high).toBeCloseTo(0.4345, 3);
    const half = wilsonInterval(5, 10);
    expect(half?.low).toBeCloseTo(0.2366, 3);
    expect(half?.high).toBeCloseTo(0.7634, 3);
  });

  it("is null with nothing judged", () => {
    expect(wilsonInterval(0, 0)).toBeNull();
  });
});

describe("precision at a threshold", () => {
  it("counts only VIPs above the threshold (the rule enrichment decides by)", () => {
    const verdicts = [...judged(70, "wrong"), ...judged(71, "right"), ...judged(90, "wrong")];
    expect(precisionAt(verdicts, 70)).toMatchObject({
      judged: 2,
      right: 1,
      wrong: 1,
      precision: 0.5,
    });
    expect(precisionAt(verdicts, 69)).toMatchObject({ judged: 3, right: 1, wrong: 2 });
  });

  it("has no precision and no interval when nothing is judged", () => {
    const p = computePrecision(judged(60, "right", 3), 70);
    expect(p).toEqual({
      threshold: 70,
      judged: 0,
      right: 0,
      wrong: 0,
      precision: null,
      interval: null,
      suggestedThreshold: null,
      verdictsInWindow: 3,
    });
    expect(precisionLine(p)).toBe(
      "Precision at 70: no VIP above 70 scored in the last 90 days has a verdict yet.",
    );
    expect(suggestionLine(p)).toBe(
      "Give at least 20 verdicts to get a suggested threshold (3 so far).",
    );
  });

  it("says 18 of 20 as the settings page shows it", () => {
    const p = computePrecision([...judged(80, "right", 18), ...judged(75, "wrong", 2)], 70);
    expect(p).toMatchObject({ judged: 20, right: 18, wrong: 2, precision: 0.9 });
    expect(precisionLine(p)).toBe(
      "Precision at 70: 18 right of 20 judged (90 %, 95 % interval 70–97 %)",
    );
  });
});

describe("suggestThreshold", () => {
  it("needs 20 verdicts", () => {
    expect(suggestThreshold(judged(80, "right", 19))).toBeNull();
    expect(suggestThreshold(judged(80, "right", 20))).toBe(79);
  });

  it("picks the lowest threshold reaching 90 %, so the one keeping the most VIPs", () => {
    // 10 wrong at 72, 18 right at 80, 1 wrong at 85: above 71 → 18/29; above 72 → 18/19 ≥ 90 %.
    const verdicts = [
      ...judged(72, "wrong", 10),
      ...judged(80, "right", 18),
      ...judged(85, "wrong", 1),
    ];
    expect(suggestThreshold(verdicts)).toBe(72);
    const p = computePrecision(verdicts, 70);
    expect(p.suggestedThreshold).toBe(72);
    expect(suggestionLine(p)).toBe(
      "Suggested threshold: 72, the lowest that would have kept precision at 90 % or more, so the one keeping the most VIPs.",
    );
  });

  it("never looks below the lowest judged score", () => {
    // All right: nothing is known below 75, so 74 (VIPs from 75 up), not 0.
    expect(suggestThreshold(judged(75, "right", 25))).toBe(74);
  });

  it("is null when no threshold reaches 90 %", () => {
    const verdicts = [...judged(80, "right", 10), ...judged(95, "wrong", 10)];
    expect(suggestThreshold(verdicts)).toBeNull();
    expect(suggestionLine(computePrecision(verdicts, 70))).toBe(
      "No threshold would have kept precision at 90 % or more on these verdicts with at least 10 judged VIPs above it.",
    );
  });

  it("rests on at least 10 judged VIPs above the threshold it suggests", () => {
    // Above 59: 5 right of 20. Only above 60 is every verdict right, but that is 5 of 5.
    const verdicts = [...judged(60, "wrong", 15), ...judged(90, "right", 5)];
    expect(precisionAt(verdicts, 60)).toMatchObject({ judged: 5, precision: 1 });
    expect(suggestThreshold(verdicts)).toBeNull();
    // With 10 right above 60 it is suggested.
    expect(suggestThreshold([...verdicts, ...judged(90, "right", 5)])).toBe(60);
  });
});
