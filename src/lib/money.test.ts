import { describe, expect, it } from "vitest";
import { formatMoney, formatUsd } from "./money.js";

describe("formatMoney", () => {
  it.each([
    ["1250.00", "USD", "$1,250.00"],
    ["0.5", "USD", "$0.50"],
    ["0.05", "USD", "$0.05"],
    ["950", "USD", "$950.00"],
    ["0.105", "USD", "$0.105"],
    ["89.9", "EUR", "€89.90"],
    ["1000", "JPY", "¥1,000"],
    ["12345678901234567.89", "USD", "$12,345,678,901,234,567.89"],
    ["10.00", "XYZ", "XYZ\u00a010.00"],
  ])("%s %s → %s", (amount, currency, expected) => {
    expect(formatMoney(amount, currency)).toBe(expected);
  });
});

describe("formatUsd", () => {
  it.each([
    [148000, "$148,000"],
    [250001, "$250,001"],
    [1234.5, "$1,234.50"],
  ])("%s → %s", (value, expected) => {
    expect(formatUsd(value)).toBe(expected);
  });
});
