/**
 * An amount in another currency in US dollars, from the euro reference rates held: the cross
 * rate (rate-day.ts's glossary) applied in exact decimal arithmetic on the 10^-6 units of
 * lib/decimal.ts, one division at the end, rounded half up: the same total and rates give the
 * same dollars on every engine and every run, and no float ever holds money.
 */
import { type Executor, preparedQuery } from "../../db/prepared-query.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";

/** What converts one currency to dollars: its euro rate and the dollar's, of one day. */
export interface UsdQuote {
  currency: string;
  /** Units of `currency` for one euro ("1" for the euro itself). */
  perEur: string;
  /** US dollars for one euro. */
  usdPerEur: string;
  /** The day of the rates, YYYY-MM-DD. */
  date: string;
  source: string;
}

/** The quote for `currency` from the rates held, or null when there is no rate for it. */
export async function readUsdQuote(db: Executor, currency: string): Promise<UsdQuote | null> {
  const rows = await findRates.execute(db, { currency });
  const usd = rows.find((r) => r.currency === "USD");
  const own = currency === "EUR" ? { per_eur: "1" } : rows.find((r) => r.currency === currency);
  if (usd === undefined || own === undefined) return null;
  return {
    currency,
    perEur: own.per_eur,
    usdPerEur: usd.per_eur,
    date: usd.rate_date,
    source: usd.source,
  };
}

// Prepared once (db/prepared-query.ts): it runs for every enrichment of an order in another
// currency. The primary key finds both rows.
const findRates = preparedQuery(["currency"], (db, v: { currency: string }) =>
  db
    .selectFrom("exchange_rates")
    .select(["currency", "per_eur", "rate_date", "source"])
    .where("currency", "in", [v.currency, "USD"]),
);

/** `micros` (10^-6 units of the quote's currency) in 10^-6 US dollars, rounded half up. */
export function toUsdMicros(micros: bigint, quote: UsdQuote): bigint {
  const usdPerEur = toMicros(quote.usdPerEur);
  const perEur = toMicros(quote.perEur);
  return divideRounded(micros * usdPerEur, perEur);
}

/** A decimal amount of the quote's currency in US dollars, to the cent ("1001.39"). */
export function toUsdCents(amount: string, quote: UsdQuote): string {
  const usd = toUsdMicros(toMicros(amount), quote);
  return fromMicros(divideRounded(usd, 10_000n) * 10_000n, 2);
}

/**
 * Dollars for one unit of the currency, as a person reads a rate: four decimals, or as many as
 * four significant digits need ("1.0820", "0.006888" for the yen, "0.00006047" for the rupiah).
 */
export function usdPerUnitText(quote: UsdQuote): string {
  const digits = 12;
  const scaled = divideRounded(
    toMicros(quote.usdPerEur) * 10n ** BigInt(digits),
    toMicros(quote.perEur),
  );
  let decimals = 4;
  while (decimals < digits && scaled < 10n ** BigInt(digits - decimals + 3)) decimals++;
  const unit = 10n ** BigInt(digits - decimals);
  const rounded = divideRounded(scaled, unit);
  const whole = rounded / 10n ** BigInt(decimals);
  const frac = (rounded % 10n ** BigInt(decimals)).toString().padStart(decimals, "0");
  return `${whole}.${frac}`;
}

/** a ÷ b for non-negative a and positive b, rounded half up. */
function divideRounded(a: bigint, b: bigint): bigint {
  return (a * 2n + b) / (2n * b);
}
