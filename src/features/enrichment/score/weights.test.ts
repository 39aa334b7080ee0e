import { describe, expect, it } from "vitest";
import type { OfflineSignals } from "../offline-signals.js";
import type { ProfileFragment, Seniority } from "../providers/provider.js";
import { computeScore, type ScoreResult } from "./compute-score.js";
import { SENIORITY_LABELS } from "./signal-labels.js";

/**
 * Every band of weights.ts, at and just below each boundary, through computeScore. The literal
 * numbers here are the spec: a weight change must change this table too.
 */

/** An ordinary shopper's offline signals: gmail, one $40 order, no store history, no ZIP data. */
const ORDINARY: OfflineSignals = {
  latestOrder: { kind: "order", total: "40.00", currency: "USD" },
  storeRank: { kind: "too_few_orders", storeOrders: 3, minimum: 20, currency: "USD" },
  emailDomain: { domain: "gmail.com", kind: "free_mail" },
  orderCount: 1,
  lifetime: {
    kind: "spend",
    currency: "USD",
    total: "40.00",
    largest: "40.00",
    orders: 1,
    otherCurrencyOrders: 0,
    otherCurrencies: [],
  },
  area: { kind: "not_loaded" },
};

function score(profile: ProfileFragment = {}, offline: Partial<OfflineSignals> = {}): ScoreResult {
  return computeScore({ profile, offline: { ...ORDINARY, ...offline } });
}

function line(result: ScoreResult, signal: string) {
  const found = result.signals.find((s) => s.signal === signal);
  if (!found) throw new Error(`no ${signal} signal in ${JSON.stringify(result.signals)}`);
  return found;
}

describe("the weights: every band, through computeScore", () => {
  const seniority: Array<[Seniority, number]> = [
    ["c_level", 35],
    ["founder", 35],
    ["owner", 25],
    ["partner", 25],
    ["vp", 25],
    ["director", 15],
    ["manager", 5],
    ["senior", 0],
    ["entry", 0],
  ];
  it.each(seniority)("seniority %s → %i", (level, points) => {
    expect(line(score({ seniority: level }), "seniority")).toEqual({
      source: "profile",
      signal: "seniority",
      value: SENIORITY_LABELS[level],
      points,
    });
  });

  const figures: Array<[keyof ProfileFragment, string, Array<[number, number]>]> = [
    [
      "companyEmployees",
      "company_employees",
      [
        [10_000, 10],
        [1000, 10],
        [999, 8],
        [500, 8],
        [499, 5],
        [100, 5],
        [99, 2],
        [20, 2],
        [19, 0],
        [0, 0],
      ],
    ],
    [
      "companyRevenueUsd",
      "company_revenue_usd",
      [
        [1e9, 10],
        [999_999_999, 8],
        [1e8, 8],
        [99_999_999, 5],
        [1e7, 5],
        [9_999_999, 2],
        [1e6, 2],
        [999_999, 0],
      ],
    ],
    [
      "inferredSalaryUsd",
      "inferred_salary_usd",
      [
        [300_000, 25],
        [299_999, 18],
        [200_000, 18],
        [199_999, 12],
        [150_000, 12],
        [149_999, 6],
        [100_000, 6],
        [99_999, 0],
      ],
    ],
    [
      "householdIncomeUsd",
      "household_income_usd",
      [
        [500_000, 30],
        [499_999, 20],
        [250_000, 20],
        [249_999, 10],
        [150_000, 10],
        [149_999, 4],
        [100_000, 4],
        [99_999, 0],
      ],
    ],
    [
      "netWorthUsd",
      "net_worth_usd",
      [
        [10e6, 35],
        [9_999_999, 25],
        [5e6, 25],
        [4_999_999, 15],
        [1e6, 15],
        [999_999, 5],
        [500_000, 5],
        [499_999, 0],
      ],
    ],
    [
      "homeValueUsd",
      "home_value_usd",
      [
        [2e6, 15],
        [1_999_999, 10],
        [1e6, 10],
        [999_999, 5],
        [750_000, 5],
        [749_999, 0],
      ],
    ],
  ];
  for (const [field, signal, bands] of figures) {
    it.each(bands)(`${signal} %i → %i`, (value, points) => {
      expect(line(score({ [field]: value }), signal)).toEqual({
        source: "profile",
        signal,
        value,
        points,
      });
    });
  }

  it.each([
    [1_000_000, 35],
    [999_999, 25],
    [100_000, 25],
    [99_999, 12],
    [10_000, 12],
    [9_999, 4],
    [1000, 4],
    [999, 0],
  ])("social_followers %i → %i (the largest audience counts)", (followers, points) => {
    const result = score({
      social: [
        { network: "twitter", handle: "j", url: null, followers: 10 },
        { network: "instagram", handle: "j", url: null, followers },
        { network: "github", handle: "j", url: null, followers: null },
      ],
    });
    expect(line(result, "social_followers")).toEqual({
      source: "profile",
      signal: "social_followers",
      value: Math.max(10, followers),
      points,
    });
  });

  it.each([
    [250_001, 25],
    [250_000, 25],
    [249_999, 20],
    [200_000, 20],
    [199_999, 12],
    [150_000, 12],
    [149_999, 6],
    [100_000, 6],
    [99_999, 0],
    [78_000, 0],
    [2499, 0],
  ])("area median income %i → %i", (income, points) => {
    const result = score(
      {},
      { area: { kind: "found", zcta: "10021", medianHouseholdIncome: income } },
    );
    expect(line(result, "area_median_income_usd")).toMatchObject({ value: income, points });
  });

  it.each([
    ["2500.00", 30],
    ["2499.99", 25],
    ["1000", 25],
    ["999.999999", 18],
    ["500.00", 18],
    ["499.99", 10],
    ["250.00", 10],
    ["249.99", 4],
    ["100.00", 4],
    ["99.99", 0],
    ["40.00", 0],
    ["0", 0],
  ])("USD order value %s → %i (exact decimal comparison)", (total, points) => {
    const result = score({}, { latestOrder: { kind: "order", total, currency: "USD" } });
    expect(line(result, "order_value")).toEqual({
      source: "offline",
      signal: "order_value",
      value: `${total} USD`,
      points,
    });
  });

  it.each([
    [100, 15],
    [99, 15],
    [98.9, 10],
    [95, 10],
    [94.9, 6],
    [90, 6],
    [89.9, 2],
    [75, 2],
    [74.9, 0],
    [0, 0],
  ])("store percentile %d → %i", (percentile, points) => {
    const result = score(
      {},
      { storeRank: { kind: "ranked", percentile, storeOrders: 50, currency: "USD" } },
    );
    expect(line(result, "order_vs_store_percentile")).toMatchObject({ value: percentile, points });
  });

  it.each([
    [50, 12],
    [10, 12],
    [9, 8],
    [5, 8],
    [4, 4],
    [2, 4],
    [1, 0],
    [0, 0],
  ])("repeat purchases %i → %i", (orderCount, points) => {
    expect(line(score({}, { orderCount }), "repeat_purchases")).toMatchObject({
      value: orderCount,
      points,
    });
  });

  it("corporate domain → 5, free mail → 0", () => {
    const corporate = score({}, { emailDomain: { domain: "acme.com", kind: "corporate" } });
    expect(line(corporate, "email_domain")).toMatchObject({
      value: "acme.com (corporate)",
      points: 5,
    });
    expect(line(score(), "email_domain")).toMatchObject({
      value: "gmail.com (free mail)",
      points: 0,
    });
  });
});
