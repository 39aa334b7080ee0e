/** Tier lists as people type them, and a customer's tier as a pure function of their score. */
import { describe, expect, it } from "vitest";
import { formatTiers, parseTiers, readTiers, storedTiers, tierOf, tierRange } from "./tiers.js";

const errorsOf = (text: string) => {
  const checked = parseTiers(text);
  return checked.ok ? [] : checked.errors;
};

describe("parseTiers", () => {
  it("reads NAME:FLOOR pairs, trims them and keeps them highest floor first", () => {
    expect(parseTiers(" Silver:80 ,Gold:90, Bronze : 0\nPlatinum:100")).toEqual({
      ok: true,
      tiers: [
        { name: "Platinum", floor: 100 },
        { name: "Gold", floor: 90 },
        { name: "Silver", floor: 80 },
        { name: "Bronze", floor: 0 },
      ],
    });
  });

  it("reads an empty text (or only separators) as no tiers", () => {
    expect(parseTiers("")).toEqual({ ok: true, tiers: [] });
    expect(parseTiers(" , ")).toEqual({ ok: true, tiers: [] });
  });

  it("names each problem in a sentence", () => {
    expect(errorsOf("Gold")).toEqual(['"Gold" is not NAME:FLOOR (for example Gold:90)']);
    expect(errorsOf(":90")).toEqual(['":90" has no tier name before the colon']);
    expect(errorsOf("Go:ld:90")).toEqual(['"Go:ld:90": a tier name cannot contain a colon']);
    expect(errorsOf(`${"x".repeat(41)}:90`)).toEqual([
      `the tier name "${"x".repeat(41)}" is longer than 40 characters`,
    ]);
    expect(errorsOf(`${"x".repeat(40)}:90`)).toEqual([]);
    expect(errorsOf("Gold:101")).toEqual([
      'the floor of "Gold" must be a whole number from 0 to 100, not "101"',
    ]);
    expect(errorsOf("Gold:9.5")).toEqual([
      'the floor of "Gold" must be a whole number from 0 to 100, not "9.5"',
    ]);
    expect(errorsOf("Gold:-1")).toHaveLength(1);
    expect(errorsOf("Gold:")).toEqual([
      'the floor of "Gold" must be a whole number from 0 to 100, not ""',
    ]);
    expect(errorsOf("Gold:90,gold:80")).toEqual([
      'two tiers are named "Gold": each tier needs its own name',
    ]);
    expect(errorsOf("Gold:90,Silver:90")).toEqual([
      '"Gold" and "Silver" have the same floor 90: each tier needs its own floor',
    ]);
    expect(errorsOf("Go\u0007ld:90")).toHaveLength(1);
    // Several problems are all named at once.
    expect(errorsOf("Gold, Silver:200")).toHaveLength(2);
  });
});

describe("tierOf", () => {
  const tiers = [
    { name: "Gold", floor: 90 },
    { name: "Silver", floor: 80 },
    { name: "Low", floor: 20 },
  ];

  it("is the tier with the highest floor the score reaches", () => {
    expect(tierOf(100, tiers)).toBe("Gold");
    expect(tierOf(90, tiers)).toBe("Gold");
    expect(tierOf(89, tiers)).toBe("Silver");
    expect(tierOf(80, tiers)).toBe("Silver");
    expect(tierOf(50, tiers)).toBe("Low");
  });

  it("is none below every floor, without a score, or without tiers", () => {
    expect(tierOf(19, tiers)).toBeNull();
    expect(tierOf(null, tiers)).toBeNull();
    expect(tierOf(undefined, tiers)).toBeNull();
    expect(tierOf(95, [])).toBeNull();
  });

  it("does not depend on the order the tiers are given in", () => {
    expect(tierOf(85, [...tiers].reverse())).toBe("Silver");
  });
});

describe("tierRange, storage and display", () => {
  const tiers = [
    { name: "Gold", floor: 90 },
    { name: "Silver", floor: 80 },
  ];

  it("covers a tier's floor up to the next higher floor, names compared without case", () => {
    expect(tierRange("gold", tiers)).toEqual({ min: 90, below: null });
    expect(tierRange("Silver", tiers)).toEqual({ min: 80, below: 90 });
    expect(tierRange("Bronze", tiers)).toBeNull();
  });

  it("stores as JSON, highest first, reads back, and shows as it is typed", () => {
    const stored = storedTiers([...tiers].reverse());
    expect(JSON.parse(stored)).toEqual(tiers);
    expect(readTiers(stored)).toEqual(tiers);
    expect(readTiers("[]")).toEqual([]);
    expect(readTiers("not json")).toEqual([]);
    expect(formatTiers(tiers)).toBe("Gold:90, Silver:80");
    expect(parseTiers(formatTiers(tiers))).toEqual({ ok: true, tiers });
  });
});
