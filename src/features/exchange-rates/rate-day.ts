/**
 * Glossary of exchange rates in Velvet:
 *
 * - reference rate: the European Central Bank's euro foreign exchange reference rate for one
 *   currency on one working day, published around 16:00 CET as "1 EUR = x units" (`perEur`).
 *   Rates are published for information; Velvet uses them to put an order's value on the
 *   dollar bands of the score, never to move money.
 * - rate day: every currency's rate for one day, as one unit: it is stored whole, replacing the
 *   previous day, so the table never mixes two days.
 * - cross rate: the dollars one unit of a currency is worth, from two euro rates:
 *   USD per X = (USD per EUR) ÷ (X per EUR); for the euro itself, USD per EUR (usd-conversion.ts).
 * - source: who published the rates, shown in the score's reason with their date ("ECB").
 *
 * A rate day is checked the same way whichever way it came (the file Velvet ships, the ECB's
 * daily XML): a real date, three-letter currency codes each once, positive decimal rates, and
 * the US dollar among them (without it nothing converts).
 */
import { isDecimalString } from "../../lib/decimal.js";

export const ECB_SOURCE = "ECB";

export interface RateDay {
  /** YYYY-MM-DD */
  date: string;
  source: string;
  /** Currency code → units of it for one euro, as published. */
  rates: ReadonlyMap<string, string>;
}

export const CURRENCY_RE = /^[A-Z]{3}$/;

/** Fewer currencies than this is not a whole day (the ECB publishes about thirty). */
export const MIN_CURRENCIES = 10;

/** Why a set of rates is not a usable day, or null when it is. */
export function rateDayProblem(day: RateDay): string | null {
  if (!isRealDate(day.date)) return `"${day.date}" is not a date (YYYY-MM-DD)`;
  for (const [currency, rate] of day.rates) {
    if (!CURRENCY_RE.test(currency)) return `"${currency}" is not a currency code`;
    if (currency === "EUR") return "it quotes the euro against itself";
    if (!isDecimalString(rate) || !/[1-9]/.test(rate)) {
      return `the rate for ${currency} ("${rate}") is not a positive decimal`;
    }
  }
  if (!day.rates.has("USD")) return "it has no rate for the US dollar";
  if (day.rates.size < MIN_CURRENCIES) {
    return `it has ${day.rates.size} currencies, fewer than the ${MIN_CURRENCIES} of a whole day`;
  }
  return null;
}

function isRealDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}
