import { describe, expect, it } from "vitest";
import { formatSignalValue } from "./signal-values.js";

describe("formatSignalValue", () => {
  it.each([
    ["area_median_income_usd", 250001, "$250,000+"],
    ["area_median_income_usd", 2499, "$2,500 or less"],
    ["area_median_income_usd", 148250, "$148,250"],
    ["net_worth_usd", 5000000, "$5,000,000"],
    ["order_value", "1250.00 USD", "$1,250.00"],
    ["order_value", "89.9 EUR", "€89.90"],
    ["order_value", "no order with a total", "no order with a total"],
    ["social_followers", 12500, "12,500"],
    ["repeat_purchases", 3, "3"],
    ["capped_at_100", true, "yes"],
    ["seniority", null, null],
  ] as const)("%s %s → %s", (signal, value, expected) => {
    expect(formatSignalValue(signal, value)).toBe(expected);
  });
});
