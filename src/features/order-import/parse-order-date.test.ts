import { describe, expect, it } from "vitest";
import { parseOrderDate } from "./parse-order-date.js";

describe("parseOrderDate", () => {
  it("reads the forms the exports write, in UTC unless a zone is given", () => {
    expect(parseOrderDate("2024-03-05 14:02:11 -0500")).toBe(Date.parse("2024-03-05T19:02:11Z"));
    expect(parseOrderDate("2024-03-05T14:02:11+01:00")).toBe(Date.parse("2024-03-05T13:02:11Z"));
    expect(parseOrderDate("2024-03-05T14:02:11.25Z")).toBe(Date.parse("2024-03-05T14:02:11.250Z"));
    expect(parseOrderDate("2024-03-05 14:02:11")).toBe(Date.parse("2024-03-05T14:02:11Z"));
    expect(parseOrderDate("2024-03-05 14:02")).toBe(Date.parse("2024-03-05T14:02:00Z"));
    expect(parseOrderDate(" 2024-03-05 ")).toBe(Date.parse("2024-03-05T00:00:00Z"));
  });

  it("refuses what it would have to guess, and impossible dates", () => {
    for (const text of [
      "03/05/2024",
      "5 March 2024",
      "2024-02-30",
      "2024-13-01",
      "2024-03-05 24:00",
      "",
      "1709647331",
    ]) {
      expect(parseOrderDate(text), text).toBeNull();
    }
  });
});
