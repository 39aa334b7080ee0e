import { describe, expect, it } from "vitest";
import { readStoredSignals } from "./read-stored-signals.js";

describe("readStoredSignals", () => {
  it("reads the stored explanation, a missing value as null", () => {
    const stored = [
      { source: "profile", signal: "seniority", value: "c_level", points: 35 },
      { source: "offline", signal: "order_value", points: 0 },
    ];
    expect(readStoredSignals(JSON.stringify(stored))).toEqual([
      stored[0],
      { source: "offline", signal: "order_value", value: null, points: 0 },
    ]);
  });

  it("drops malformed entries and answers [] for anything that is not a list", () => {
    const good = { source: "profile", signal: "seniority", value: "vp", points: 25 };
    const mixed = [{ signal: "x" }, null, good, { ...good, points: "25" }, { ...good, value: {} }];
    expect(readStoredSignals(JSON.stringify(mixed))).toEqual([good]);
    for (const json of [null, undefined, "", "not json", '{"a":1}', "null", "42"])
      expect(readStoredSignals(json)).toEqual([]);
  });
});
