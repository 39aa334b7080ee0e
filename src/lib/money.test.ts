import { describe, expect, it } from "vitest";
import { formatMoney } from "./money.js";

describe("formatMoney", () => {
  it.each([
    ["1250.00", "USD", "$1,250.00"],
    ["0.5", "USD", "$0.50"],
    ["89.9", "EUR", "€89.90"],
    ["1000", "JPY", "¥1,000"],
    ["12345678901234567.89", "USD", "$12,345,678,901,234,567.89"],
  ])("%s %s → %s", (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });
});
