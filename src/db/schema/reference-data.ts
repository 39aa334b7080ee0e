/**
 * Reference data loaded from public sources, never written by merchants: the median household
 * income of each ZIP code area (features/zip-income) and the ECB's euro reference rates
 * (features/exchange-rates).
 */

export interface ZipIncomesTable {
  zcta: string;
  median_household_income: number;
  margin_of_error: number | null;
}

/** The latest day of euro reference rates, one row per currency (migration 0027). */
export interface ExchangeRatesTable {
  currency: string;
  /** Units of the currency for one euro, as published (a decimal string). */
  per_eur: string;
  /** The day the rates are for, YYYY-MM-DD. */
  rate_date: string;
  /** Who published them: "ECB". */
  source: string;
  stored_at: number;
}
