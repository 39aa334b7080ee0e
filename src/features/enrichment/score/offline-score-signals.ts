/**
 * The score lines that come from the offline signals (order, store history, e-mail, lifetime
 * spend and largest order, area).
 */

import { isDecimalString, toMicros } from "../../../lib/decimal.js";
import { formatMoney } from "../../../lib/money.js";
import { plural } from "../../../lib/plural.js";
import { toUsdCents, usdPerUnitText } from "../../exchange-rates/usd-conversion.js";
import type { AreaIncome, LifetimeSpend, OfflineSignals } from "../offline-signals.js";
import type { ScoreSignal } from "./score-signal.js";
import {
  AREA_MEDIAN_INCOME_BANDS,
  type Band,
  bandPoints,
  CORPORATE_DOMAIN_POINTS,
  LARGEST_ORDER_USD_BANDS,
  LIFETIME_SPEND_USD_BANDS,
  ORDER_VALUE_USD_BANDS,
  REPEAT_ORDER_BANDS,
  STORE_PERCENTILE_BANDS,
} from "./weights.js";

const NO_ORDER_TOTAL = "no order with a total";

export function offlineSignals(offline: OfflineSignals): ScoreSignal[] {
  const { emailDomain } = offline;
  const corporate = emailDomain.kind === "corporate";
  return [
    orderValue(offline),
    storeRank(offline),
    {
      source: "offline",
      signal: "email_domain",
      value: `${emailDomain.domain} (${corporate ? "corporate" : "free mail"})`,
      points: corporate ? CORPORATE_DOMAIN_POINTS : 0,
    },
    {
      source: "offline",
      signal: "repeat_purchases",
      value: offline.orderCount,
      points: bandPoints(offline.orderCount, REPEAT_ORDER_BANDS),
    },
    lifetimeSpendSignal(offline),
    largestOrderSignal(offline),
    affluentArea(offline.area),
  ];
}

/**
 * A USD order's value is "<total> USD" (signal-values.ts formats it); an order in another
 * currency says what it was converted to and with which rate, of which day and publisher:
 * "€925.50 ≈ $1,001.39 at 1.0820 USD/EUR, ECB 2026-11-26".
 */
function orderValue({ latestOrder: order }: OfflineSignals): ScoreSignal {
  const base = { source: "offline", signal: "order_value" };
  if (order.kind === "none") return { ...base, value: NO_ORDER_TOTAL, points: 0 };
  if (order.currency === "USD") {
    return { ...base, value: `${order.total} USD`, points: usdOrderPoints(order.total) };
  }
  const usd = order.usd;
  if (usd?.kind !== "converted") {
    return {
      ...base,
      value: `${order.total} ${order.currency} (no reference rate for ${order.currency})`,
      points: 0,
    };
  }
  const { quote } = usd;
  const value =
    `${formatMoney(order.total, order.currency)} ≈ ${formatMoney(usd.usdTotal, "USD")} at ` +
    `${usdPerUnitText(quote)} USD/${order.currency}, ${quote.source} ${quote.date}`;
  return { ...base, value, points: usdOrderPoints(usd.usdTotal) };
}

/** Exact: "499.999" is below the $500 band, whatever a float would round it to. */
function usdOrderPoints(total: string, bands: Band[] = ORDER_VALUE_USD_BANDS): number {
  if (!isDecimalString(total)) return 0;
  const micros = toMicros(total);
  return bands.find((b) => micros >= BigInt(b.atLeast) * 1_000_000n)?.points ?? 0;
}

/** "$3,020.00 over 21 orders"; other currencies' orders said, not added. */
export function describeLifetimeSpend(spend: Extract<LifetimeSpend, { kind: "spend" }>): string {
  const base = `${formatMoney(spend.total, spend.currency)} over ${plural(spend.orders, "order")}`;
  if (spend.otherCurrencyOrders === 0) return base;
  const others = plural(spend.otherCurrencyOrders, "order");
  return `${base} (${spend.currency} only: ${others} in ${spend.otherCurrencies.join(", ")} not added)`;
}

/** Scored from the second order on: a first order is the order bands' to score. */
/**
 * An amount in the customer's main currency, in dollars for the bands: as it is in USD; else at
 * the reference rate the latest order was converted with (the main currency is the latest
 * order's: lifetime-spend.ts), said beside the amount; null without a rate.
 */
function inUsd(
  amount: string,
  currency: string,
  latest: OfflineSignals["latestOrder"],
): { usd: string; said: string } | null {
  if (currency === "USD") return { usd: amount, said: "" };
  const usd = latest.kind === "order" && latest.currency === currency ? latest.usd : undefined;
  if (usd?.kind !== "converted") return null;
  const converted = toUsdCents(amount, usd.quote);
  return {
    usd: converted,
    said: ` ≈ ${formatMoney(converted, "USD")} at ${usdPerUnitText(usd.quote)} USD/${currency}, ${usd.quote.source} ${usd.quote.date}`,
  };
}

function lifetimeSpendSignal({ lifetime: spend, latestOrder }: OfflineSignals): ScoreSignal {
  const base = { source: "offline", signal: "lifetime_spend" };
  if (spend.kind === "none") return { ...base, value: NO_ORDER_TOTAL, points: 0 };
  const value = describeLifetimeSpend(spend);
  const usd = inUsd(spend.total, spend.currency, latestOrder);
  if (usd === null) {
    return { ...base, value: `${value} (no reference rate for ${spend.currency})`, points: 0 };
  }
  if (spend.orders < 2) return { ...base, value: `${value} (the order itself)`, points: 0 };
  return {
    ...base,
    value: `${value}${usd.said}`,
    points: usdOrderPoints(usd.usd, LIFETIME_SPEND_USD_BANDS),
  };
}

/** Scored when a past order is larger than the latest, which has its own bands. */
function largestOrderSignal({ lifetime, latestOrder }: OfflineSignals): ScoreSignal {
  const base = { source: "offline", signal: "largest_order" };
  if (lifetime.kind === "none") return { ...base, value: NO_ORDER_TOTAL, points: 0 };
  const value = formatMoney(lifetime.largest, lifetime.currency);
  const usd = inUsd(lifetime.largest, lifetime.currency, latestOrder);
  if (usd === null) {
    return { ...base, value: `${value} (no reference rate for ${lifetime.currency})`, points: 0 };
  }
  const latest = latestOrder.kind === "order" ? latestOrder.total : "0";
  const isLatest =
    isDecimalString(latest) &&
    isDecimalString(lifetime.largest) &&
    toMicros(lifetime.largest) <= toMicros(latest);
  if (isLatest) return { ...base, value: `${value} (the latest order)`, points: 0 };
  return {
    ...base,
    value: `${value}${usd.said}`,
    points: usdOrderPoints(usd.usd, LARGEST_ORDER_USD_BANDS),
  };
}

function storeRank({ storeRank: rank }: OfflineSignals): ScoreSignal {
  const base = { source: "offline", signal: "order_vs_store_percentile" };
  switch (rank.kind) {
    case "no_order":
      return { ...base, value: NO_ORDER_TOTAL, points: 0 };
    case "too_few_orders":
      return {
        ...base,
        value: `store has ${plural(rank.storeOrders, `${rank.currency} order`)}, ${rank.minimum} needed`,
        points: 0,
      };
    case "prior": {
      const as = rank.usdTotal === undefined ? "" : `, as ${formatMoney(rank.usdTotal, "USD")}`;
      return {
        ...base,
        value: `${rank.percentile} among typical online orders${as} (store has ${plural(rank.storeOrders, `${rank.currency} order`)}, ${rank.minimum} for its own)`,
        points: bandPoints(rank.percentile, STORE_PERCENTILE_BANDS),
      };
    }
    case "ranked":
      return {
        ...base,
        value: rank.percentile,
        points: bandPoints(rank.percentile, STORE_PERCENTILE_BANDS),
      };
  }
}

function affluentArea(area: AreaIncome): ScoreSignal {
  const base = { source: "offline", signal: "area_median_income_usd" };
  switch (area.kind) {
    case "found":
      return {
        ...base,
        value: area.medianHouseholdIncome,
        points: bandPoints(area.medianHouseholdIncome, AREA_MEDIAN_INCOME_BANDS),
      };
    case "not_loaded":
      return { ...base, value: "ZIP income data not loaded", points: 0 };
    case "unknown_zip":
      return { ...base, value: `ZIP ${area.zcta} not in the income data`, points: 0 };
    case "no_zip":
      return { ...base, value: "no ZIP code", points: 0 };
    case "not_us":
      return { ...base, value: `outside the US (${area.country})`, points: 0 };
    case "invalid_zip":
      return { ...base, value: `not a US ZIP code: ${area.zipcode}`, points: 0 };
  }
}
