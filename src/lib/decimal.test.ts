import { describe, expect, it } from "vitest";
import { fromMicros, isDecimalString, multiply, toMicros } from "./decimal.js";

describe("decimal helpers", () => {
  it("recognises non-negative decimal strings only", () => {
    for (const ok of ["0", "5", "0.05", "129.90", "007.50", "12345678901234567890.123456789"]) {
      expect(isDecimalString(ok), ok).toBe(true);
    }
    for (const bad of [
      "",
      "-1",
      "+1",
      "1.",
      ".5",
      "1e3",
      "1,5",
      " 1",
      "1.2.3",
      "NaN",
      "Infinity",
    ]) {
      expect(isDecimalString(bad), bad).toBe(false);
    }
  });

  it("converts to micro-units exactly, rounding half up past six places", () => {
    expect(toMicros("0.05")).toBe(50_000n);
    expect(toMicros("129.90")).toBe(129_900_000n);
    expect(toMicros("12345678901234567890.1")).toBe(12_345_678_901_234_567_890_100_000n);
    expect(toMicros("0.0000004")).toBe(0n);
    expect(toMicros("0.0000005")).toBe(1n);
    expect(toMicros("0.9999995")).toBe(1_000_000n);
    expect(() => toMicros("-1")).toThrow(RangeError);
  });

  it("formats micro-units with at least two decimals and no float error", () => {
    expect(fromMicros(0n)).toBe("0.00");
    expect(fromMicros(150_000n)).toBe("0.15");
    expect(fromMicros(1_000_000n)).toBe("1.00");
    expect(fromMicros(1_234_567n)).toBe("1.234567");
    expect(fromMicros(5n, 0)).toBe("0.000005");
    expect(fromMicros(2_000_000n, 0)).toBe("2");
  });

  it("multiplies prices exactly where floats would not", () => {
    expect(0.1 * 3).not.toBe(0.3);
    expect(multiply("0.1", 3)).toBe("0.30");
    expect(multiply("0.05", 3)).toBe("0.15");
    expect(multiply("0.03", 3)).toBe("0.09");
    expect(multiply("0.05", 1_000_000)).toBe("50000.00");
    expect(multiply("0.05", 0)).toBe("0.00");
  });
});
