/**
 * The rates held, for people to check: their day, publisher and each currency's rate (units for
 * one euro, and what one unit is worth in dollars), as `velvet data rates` prints them.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { usdPerUnitText } from "./usd-conversion.js";

export interface HeldRates {
  date: string;
  source: string;
  /** When Velvet stored them (epoch ms). */
  storedAt: number;
  rates: Array<{ currency: string; perEur: string; usdPerUnit: string }>;
}

/** The day held, or null when no rates are held. */
export async function readHeldRates(db: Kysely<Database>): Promise<HeldRates | null> {
  const rows = await db
    .selectFrom("exchange_rates")
    .select(["currency", "per_eur", "rate_date", "source", "stored_at"])
    .orderBy("currency")
    .execute();
  const usd = rows.find((r) => r.currency === "USD");
  if (usd === undefined) return null;
  const quote = (currency: string, perEur: string) =>
    usdPerUnitText({
      currency,
      perEur,
      usdPerEur: usd.per_eur,
      date: usd.rate_date,
      source: usd.source,
    });
  return {
    date: usd.rate_date,
    source: usd.source,
    storedAt: Number(usd.stored_at),
    rates: [
      { currency: "EUR", perEur: "1", usdPerUnit: quote("EUR", "1") },
      ...rows.map((r) => ({
        currency: r.currency,
        perEur: r.per_eur,
        usdPerUnit: quote(r.currency, r.per_eur),
      })),
    ],
  };
}
