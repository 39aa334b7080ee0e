/**
 * The cross-rate arithmetic on the shipped ECB day (2025-05-09): exact decimals, one rounding
 * at the end, for currencies quoted with few and many digits.
 */
import { describe, expect, it } from "vitest";
import { toMicros } from "../../lib/decimal.js";
import { toUsdCents, toUsdMicros, type UsdQuote, usdPerUnitText } from "./usd-conversion.js";

function quote(currency: string, perEur: string): UsdQuote {
  return { currency, perEur, usdPerEur: "1.1252", date: "2025-05-09", source: "ECB" };
}

describe("converting to US dollars with euro reference rates", () => {
  it("takes the euro at the dollar's euro rate", () => {
    expect(toUsdCents("925.50", quote("EUR", "1"))).toBe("1041.37");
    expect(toUsdMicros(toMicros("925.50"), quote("EUR", "1"))).toBe(1_041_372_600n);
    expect(usdPerUnitText(quote("EUR", "1"))).toBe("1.1252");
  });

  it.each([
    // currency, units per euro, amount, dollars (amount × 1.1252 ÷ units, to the cent)
    ["GBP", "0.8477", "500.00", "663.68"], // 663.678…
    ["JPY", "163.36", "150000", "1033.18"], // 1,033.178…
    ["HUF", "404.9", "400000", "1111.58"], // 1,111.583…
    ["IDR", "18606.59", "25000000", "1511.83"], // 1,511.8299…
    ["KRW", "1575.72", "1", "0.00"], // 0.000714…: below half a cent
    ["CHF", "0.9353", "0.01", "0.01"], // 0.01203…
  ])("%s at %s per euro: %s is $%s", (currency, perEur, amount, usd) => {
    expect(toUsdCents(amount, quote(currency, perEur))).toBe(usd);
  });

  it("rounds half up once, at the end, never through a float", () => {
    // 1 EUR at 1.1252 USD = 1.1252; 1.125 EUR × 1 USD/EUR = 1.125 → 1.13 (half up).
    const even: UsdQuote = { ...quote("EUR", "1"), usdPerEur: "1" };
    expect(toUsdCents("1.125", even)).toBe("1.13");
    expect(toUsdCents("1.124999", even)).toBe("1.12");
    // 0.1 + 0.2 in floats is 0.30000000000000004; here 0.3 exactly, to the micro-dollar.
    expect(toUsdMicros(toMicros("0.3"), even)).toBe(300_000n);
  });

  it.each([
    ["EUR", "1", "1.1252"],
    ["GBP", "0.8477", "1.3274"],
    ["CHF", "0.9353", "1.2030"],
    ["JPY", "163.36", "0.006888"],
    ["HUF", "404.9", "0.002779"],
    ["IDR", "18606.59", "0.00006047"],
  ])("reads the rate of %s as dollars per unit with four significant digits", (c, perEur, text) => {
    expect(usdPerUnitText(quote(c, perEur))).toBe(text);
  });
});
