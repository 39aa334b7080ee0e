import { describe, expect, it } from "vitest";
import { describeMore, describeReason, explainScore, topReasons } from "./top-reasons.js";

const signals = [
  { source: "offline", signal: "email_domain", value: "acme.com (corporate)", points: 5 },
  { source: "profile", signal: "seniority", value: "c_level", points: 25 },
  { source: "profile", signal: "net_worth_usd", value: 5_000_000, points: 20 },
  { source: "offline", signal: "repeat_purchases", value: 1, points: 0 },
  { source: "offline", signal: "order_value", value: "1250.00 USD", points: 20 },
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

describe("explainScore", () => {
  const lines = (list: Array<object | undefined>) => {
    const { reasons, more } = explainScore(JSON.stringify(list));
    return [...reasons.map(describeReason), ...(more ? [describeMore(more)] : [])];
  };

  it("says what the signals beyond the top three add, so the lines sum to the score", () => {
    const uncapped = signals.filter((s) => s.source !== "score");
    expect(lines(uncapped)).toEqual([
      "Seniority: c_level (+25)",
      "Net worth: $5,000,000 (+20)",
      "Order value: $1,250.00 (+20)",
      "+8 from 2 more signals",
    ]);
    const sum = (list: typeof uncapped) => list.reduce((total, s) => total + s.points, 0);
    expect(25 + 20 + 20 + 8).toBe(sum(uncapped));
  });

  it("counts one more signal in the singular, and nothing when the reasons are all of it", () => {
    expect(lines(signals.slice(0, 4))).toEqual([
      "Seniority: c_level (+25)",
      "Net worth: $5,000,000 (+20)",
      "E-mail domain: acme.com (corporate) (+5)",
    ]);
    const four = [...signals.slice(0, 3), signals[4]];
    expect(lines(four).at(-1)).toBe("+5 from 1 more signal");
  });

  it("takes the cap at 100 into the rest", () => {
    const capped = [
      { source: "profile", signal: "seniority", value: "c_level", points: 40 },
      { source: "profile", signal: "net_worth_usd", value: 5_000_000, points: 35 },
      { source: "offline", signal: "order_value", value: "2950.00 USD", points: 30 },
      { source: "offline", signal: "email_domain", value: "acme.com (corporate)", points: 5 },
      { source: "score", signal: "capped_at_100", value: 110, points: -10 },
    ];
    expect(lines(capped).at(-1)).toBe("-5 from 1 more signal, the score kept within 0–100");
    const threeCapped = [
      ...capped.slice(0, 3),
      { source: "score", signal: "capped_at_100", value: 105, points: -5 },
    ];
    expect(lines(threeCapped).at(-1)).toBe("-5: the score kept within 0–100");
  });
});
