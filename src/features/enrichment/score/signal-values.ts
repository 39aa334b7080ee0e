/**
 * A score signal's value in words, the one wording for the dashboard, the alert's reasons
 * (chat and e-mail) and `velvet customer show`: dollar figures in the one money format, the
 * Census codes as the Census means them ("$250,000+", not "$250,001").
 */
import { formatMoney, formatUsd } from "../../../lib/money.js";
import type { ScoreSignal } from "./score-signal.js";

/** How the Census codes medians beyond its range (zip-income-csv.ts stores them so). */
export const CENSUS_TOP_CODE = 250_001;
export const CENSUS_BOTTOM_CODE = 2_499;

export function formatSignalValue(signal: string, value: ScoreSignal["value"]): string | null {
  if (value === null) return null;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "string") {
    // The order value is stored as "<decimal> <currency>" (offline-score-signals.ts).
    const money = signal === "order_value" ? /^(\d+(?:\.\d+)?) ([A-Z]{3})$/.exec(value) : null;
    return money ? formatMoney(money[1] as string, money[2] as string) : value;
  }
  if (signal === "area_median_income_usd") {
    if (value >= CENSUS_TOP_CODE) return "$250,000+";
    if (value <= CENSUS_BOTTOM_CODE) return "$2,500 or less";
  }
  if (signal.endsWith("_usd")) return formatUsd(value);
  return value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}
