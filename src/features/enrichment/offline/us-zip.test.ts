import { describe, expect, it } from "vitest";
import { zipLookupKey } from "./us-zip.js";

describe("zipLookupKey", () => {
  it.each([
    ["02139", null, { kind: "zcta", zcta: "02139" }],
    ["02139-4307", "US", { kind: "zcta", zcta: "02139" }],
    [" 94027 ", "usa", { kind: "zcta", zcta: "94027" }],
    ["94027", "U.S.A.", { kind: "zcta", zcta: "94027" }],
    ["10021", "United States", { kind: "zcta", zcta: "10021" }],
    ["00601", "PR", { kind: "zcta", zcta: "00601" }],
    ["10115", "DE", { kind: "not_us", country: "DE" }],
    [null, "", { kind: "no_zip" }],
    ["  ", null, { kind: "no_zip" }],
    ["2139", "US", { kind: "invalid_zip", zipcode: "2139" }],
    ["K1A 0B1", null, { kind: "invalid_zip", zipcode: "K1A 0B1" }],
  ])("%j in %j → %j", (zipcode, country, expected) => {
    expect(zipLookupKey(zipcode, country)).toEqual(expected);
  });
});
