import { describe, expect, it } from "vitest";
import { describeReason, topReasons } from "./top-reasons.js";

const signals = [
  { source: "offline", signal: "email_domain", value: "acme.com (corporate)", points: 5 },
  { source: "profile", signal: "seniority", value: "c_level", points: 25 },
  { source: "profile", signal: "net_worth_usd", value: 5_000_000, points: 20 },
  { source: "offline", signal: "repeat_purchases", value: 1, points: 0 },
  { source: "offline", signal: "order_value", value: "$1,250.00", points: 20 },
  { source: "score", signal: "capped_at_100", value: 130, points: 99 },
  { source: "profile", signal: "someNewSignal", value: true, points: 3 },
];

describe("topReasons", () => {
  it("keeps the three signals with the most points, ties in score order, cap line excluded", () => {
    expect(topReasons(JSON.stringify(signals))).toEqual([
      { label: "Seniority", value: "c_level", points: 25 },
      { label: "Net worth", value: "$5,000,000", points: 20 },
      { label: "Order value", value: "$1,250.00", points: 20 },
    ]);
  });

  it("humanises unknown signal names and formats values", () => {
    const [reason] = topReasons(JSON.stringify([signals[6]]));
    expect(reason).toEqual({ label: "Some new signal", value: "yes", points: 3 });
    expect(describeReason(reason as never)).toBe("Some new signal: yes (+3)");
    expect(describeReason({ label: "Seniority", value: null, points: 25 })).toBe("Seniority (+25)");
  });

  it("skips malformed entries and survives malformed JSON", () => {
    expect(topReasons("not json")).toEqual([]);
    expect(topReasons('{"a":1}')).toEqual([]);
    expect(topReasons(JSON.stringify([{ signal: "x" }, null, signals[1]]))).toHaveLength(1);
  });
});
