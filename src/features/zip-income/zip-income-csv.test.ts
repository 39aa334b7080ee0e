import { describe, expect, it } from "vitest";
import {
  detectLayout,
  parseEstimate,
  parseLine,
  parseMargin,
  parseZcta,
  splitLine,
} from "./zip-income-csv.js";

describe("detectLayout", () => {
  it("recognises the three layouts by their header", () => {
    expect(detectLayout("zcta,median_household_income,margin_of_error")).toEqual({
      name: "plain",
      delimiter: ",",
      zcta: 0,
      estimate: 1,
      margin: 2,
    });
    expect(detectLayout("ZCTA,Median_Household_Income")).toMatchObject({
      name: "plain",
      margin: null,
    });
    expect(detectLayout('\uFEFF"GEO_ID","NAME","B19013_001E","B19013_001M",')).toEqual({
      name: "census-table",
      delimiter: ",",
      zcta: 0,
      estimate: 2,
      margin: 3,
    });
    expect(detectLayout("GEO_ID|B19013_E001|B19013_M001")).toEqual({
      name: "census-summary-file",
      delimiter: "|",
      zcta: 0,
      estimate: 1,
      margin: 2,
    });
  });
  it("returns null for anything else", () => {
    expect(detectLayout("zip,income")).toBeNull();
    expect(detectLayout("00601,19454,1546")).toBeNull();
    expect(detectLayout("")).toBeNull();
  });
});

describe("values", () => {
  it.each([
    ["00601", "00601"],
    ["601", "00601"],
    ["860Z200US00601", "00601"],
    ["8600000US02139", "02139"],
    ["ZCTA5 00601", "00601"],
    ["0100000US", null],
    ["0400000US06", null],
    ["ABCDE", null],
    ["123456", null],
  ])("ZCTA %s → %s", (cell, zcta) => {
    expect(parseZcta(cell)).toBe(zcta);
  });
  it.each([
    ["19454", 19454],
    ["158,677", 158677],
    ["250,000+", 250001],
    ["250000+", 250001],
    ["2,500-", 2499],
    ["-", null],
    ["-666666666", null],
    ["N", null],
    ["(X)", null],
    ["", null],
    ["12.5", null],
    ["1,23", null],
  ])("estimate %j → %j", (cell, value) => {
    expect(parseEstimate(cell)).toBe(value);
  });
  it.each([
    ["1546", 1546],
    ["22,110", 22110],
    ["***", null],
    ["**", null],
    ["-333333333", null],
    ["", null],
  ])("margin %j → %j", (cell, value) => {
    expect(parseMargin(cell)).toBe(value);
  });
  it("splits quoted CSV fields with commas and doubled quotes", () => {
    expect(splitLine('"860Z200US10004","ZCTA5 10004","250,000+","***",', ",")).toEqual([
      "860Z200US10004",
      "ZCTA5 10004",
      "250,000+",
      "***",
      "",
    ]);
    expect(splitLine('a,"say ""hi""",c', ",")).toEqual(["a", 'say "hi"', "c"]);
  });
});

describe("parseLine", () => {
  const census = detectLayout('"GEO_ID","NAME","B19013_001E","B19013_001M",');
  if (!census) throw new Error("layout not detected");
  it("passes over the descriptive header row and skips rows without an estimate", () => {
    expect(
      parseLine(
        '"Geography","Geographic Area Name","Estimate!!Median household income","Margin of Error!!x",',
        census,
      ),
    ).toEqual({ kind: "header" });
    expect(parseLine('"860Z200US10020","ZCTA5 10020","-","**",', census)).toEqual({ kind: "skip" });
    expect(parseLine('"860Z200US10004","ZCTA5 10004","250,000+","***",', census)).toEqual({
      kind: "row",
      row: { zcta: "10004", medianHouseholdIncome: 250001, marginOfError: null },
    });
  });
});
