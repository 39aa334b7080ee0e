/**
 * The lifetime spend and largest order lines (offline-score-signals.ts, weights.ts): scored from
 * the second order on, in USD only, each band at and just below its boundary, and the value a
 * person reads ("$3,020.00 over 21 orders").
 */
import { describe, expect, it } from "vitest";
import type { LifetimeSpend, OfflineSignals } from "../offline-signals.js";
import { computeScore, isVip } from "./compute-score.js";
import { LIFETIME_SPEND_USD_BANDS } from "./weights.js";

function spend(total: string, orders: number, largest = "150.00", currency = "USD"): LifetimeSpend {
  return {
    kind: "spend",
    currency,
    total,
    largest,
    orders,
    otherCurrencyOrders: 0,
    otherCurrencies: [],
  };
}

function offline(lifetime: LifetimeSpend, latest = "143.80", orderCount = 21): OfflineSignals {
  return {
    latestOrder: { kind: "order", total: latest, currency: "USD" },
    storeRank: { kind: "too_few_orders", storeOrders: 3, minimum: 20, currency: "USD" },
    emailDomain: { domain: "gmail.com", kind: "free_mail" },
    orderCount,
    lifetime,
    area: { kind: "not_loaded" },
  };
}

function lines(o: OfflineSignals) {
  const { signals } = computeScore({ profile: {}, offline: o });
  const find = (name: string) => signals.find((s) => s.signal === name);
  return { lifetime: find("lifetime_spend"), largest: find("largest_order") };
}

describe("lifetime spend", () => {
  it("reads as the sum over the orders, and earns its band", () => {
    expect(lines(offline(spend("3020.00", 21))).lifetime).toEqual({
      source: "offline",
      signal: "lifetime_spend",
      value: "$3,020.00 over 21 orders",
      points: 30,
    });
  });

  it.each([
    ["10000", 45],
    ["9999.99", 38],
    ["5000", 38],
    ["2500", 30],
    ["2499.999", 15],
    ["1000", 15],
    ["500", 6],
    ["499.99", 0],
  ])("$%s over several orders earns %i", (total, points) => {
    expect(lines(offline(spend(total, 5))).lifetime?.points).toBe(points);
  });

  it("leaves a first order to the order bands", () => {
    const first = lines(offline(spend("3000.00", 1, "3000.00"), "3000.00", 1));
    expect(first.lifetime).toMatchObject({ value: "$3,000.00 over 1 order (the order itself)" });
    expect(first.lifetime?.points).toBe(0);
    expect(first.largest).toMatchObject({ value: "$3,000.00 (the latest order)", points: 0 });
  });

  it("converts another currency at the latest order's reference rate, and says which orders a mixed history left out", () => {
    // No rate for the currency: said, and nothing scored.
    expect(lines(offline(spend("3020.00", 21, "150.00", "EUR"))).lifetime).toMatchObject({
      value: "€3,020.00 over 21 orders (no reference rate for EUR)",
      points: 0,
    });
    const quote = {
      currency: "EUR",
      perEur: "1",
      usdPerEur: "1.1252",
      date: "2025-05-09",
      source: "ECB",
    };
    const euros: OfflineSignals = {
      ...offline(spend("3020.00", 21, "1200.00", "EUR")),
      latestOrder: {
        kind: "order",
        total: "150.00",
        currency: "EUR",
        usd: { kind: "converted", usdTotal: "168.78", quote },
      },
    };
    // €3,020.00 × 1.1252 = $3,398.10: the $2,500 band; the €1,200 order ≈ $1,350.24: $1,000.
    expect(lines(euros).lifetime).toEqual({
      source: "offline",
      signal: "lifetime_spend",
      value: "€3,020.00 over 21 orders ≈ $3,398.10 at 1.1252 USD/EUR, ECB 2025-05-09",
      points: 30,
    });
    expect(lines(euros).largest).toMatchObject({
      value: "€1,200.00 ≈ $1,350.24 at 1.1252 USD/EUR, ECB 2025-05-09",
      points: 6,
    });
    const mixed = { ...spend("3020.00", 21), otherCurrencyOrders: 2, otherCurrencies: ["EUR"] };
    expect(lines(offline(mixed)).lifetime?.value).toBe(
      "$3,020.00 over 21 orders (USD only: 2 orders in EUR not added)",
    );
  });

  it("has bands from the highest down", () => {
    const floors = LIFETIME_SPEND_USD_BANDS.map((b) => b.atLeast);
    expect(floors).toEqual([...floors].sort((a, b) => b - a));
  });
});

describe("largest order", () => {
  it("earns its band when a past order was larger than the latest", () => {
    expect(lines(offline(spend("3020.00", 21, "1200.00"))).largest).toEqual({
      source: "offline",
      signal: "largest_order",
      value: "$1,200.00",
      points: 6,
    });
    expect(lines(offline(spend("3020.00", 21, "2500.00"))).largest?.points).toBe(10);
    expect(lines(offline(spend("3020.00", 21, "499.99"))).largest?.points).toBe(0);
  });
});

describe("a regular", () => {
  const manager = {
    title: "Engineering Manager",
    seniority: "manager" as const,
    companyEmployees: 500,
    inferredSalaryUsd: 150_000,
  };

  it("stays under the default threshold on a first modest order and passes it at ~$3,000 over 21", () => {
    const first = computeScore({
      profile: manager,
      offline: offline(spend("143.80", 1, "143.80"), "143.80", 1),
    });
    const regular = computeScore({ profile: manager, offline: offline(spend("3019.80", 21)) });
    expect(isVip(first.score, 70)).toBe(false);
    expect(isVip(regular.score, 70)).toBe(true);
    expect(regular.score - first.score).toBe(30 + 12);
  });
});
