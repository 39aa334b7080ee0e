/**
 * The latest order's value in US dollars when it was placed in another currency: the absolute
 * order-value bands and the prior for new stores are in dollars. Converted with the latest
 * euro reference rates held (features/exchange-rates), whatever their age: their date and
 * source go into the reason, so a merchant sees how current they were. A currency the rates do
 * not cover converts to nothing, and the reason says so.
 */
import type { Executor } from "../../../db/prepared-query.js";
import { readUsdQuote, toUsdCents, type UsdQuote } from "../../exchange-rates/usd-conversion.js";

export type UsdValue =
  | { kind: "converted"; usdTotal: string; quote: UsdQuote }
  | { kind: "no_rate"; currency: string };

/** The dollar value of `total` in `currency` (not USD), or why there is none. */
export async function valueInUsd(db: Executor, total: string, currency: string): Promise<UsdValue> {
  const quote = await readUsdQuote(db, currency);
  if (quote === null) return { kind: "no_rate", currency };
  return { kind: "converted", usdTotal: toUsdCents(total, quote), quote };
}
