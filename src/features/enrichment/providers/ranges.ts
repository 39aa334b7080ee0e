/**
 * Providers give sizes and money as bands: PDL "1001-5000", "100,000-150,000", ">250,000",
 * "$10M-$25M"; FullContact "$100,000 - $149,999", "$1,000,000+", "Less than $20,000". We keep the
 * lower bound: it is what the source vouches for, and it never overstates a customer's wealth.
 */

const UNDER = /^(under|less than|below|up to|<)/;
const NUMBER = /(-)?\$?\s*(\d+(?:\.\d+)?)\s*(thousand|million|billion|mm|bn|k|m|b)?(?![a-z])/;

const MULTIPLIERS: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mm: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  billion: 1e9,
};

/** The lower bound of a band, or undefined when the text holds no number. */
export function lowerBound(text: string | null | undefined): number | undefined {
  if (typeof text !== "string") return undefined;
  const value = text.toLowerCase().replace(/,/g, "").replace(/usd/g, "").trim();
  if (value === "") return undefined;
  const match = NUMBER.exec(value);
  if (!match) return undefined;
  if (UNDER.test(value)) return 0;
  const [, minus, digits, unit] = match;
  const amount = Number(digits) * (unit === undefined ? 1 : (MULTIPLIERS[unit] ?? 1));
  return Math.round(minus === "-" ? -amount : amount);
}
