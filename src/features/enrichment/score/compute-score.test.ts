import { describe, expect, it } from "vitest";
import type { OfflineSignals } from "../offline-signals.js";
import type { ProfileFragment, Seniority } from "../providers/provider.js";
import { computeScore, isVip, type ScoreResult } from "./compute-score.js";

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

function expectExplained(result: ScoreResult) {
  expect(result.signals.reduce((sum, s) => sum + s.points, 0)).toBe(result.score);
  expect(Number.isInteger(result.score)).toBe(true);
  expect(result.score).toBeGreaterThanOrEqual(0);
  expect(result.score).toBeLessThanOrEqual(100);
}

describe("computeScore: the two reference customers", () => {
  it("scores a real VIP well above the default threshold of 70", () => {
    const result = score(
      { title: "Founder", seniority: "founder", company: "Acme", companyEmployees: 500 },
      {
        latestOrder: { kind: "order", total: "900.00", currency: "USD" },
        emailDomain: { domain: "acme.com", kind: "corporate" },
        area: { kind: "found", zcta: "94027", medianHouseholdIncome: 250_001 },
      },
    );
    expect(result.score).toBe(35 + 8 + 18 + 5 + 25);
    expect(isVip(result.score, 70)).toBe(true);
    expectExplained(result);
  });

  it("scores an ordinary shopper at zero, with every skipped signal explained", () => {
    const result = score(
      {},
      { area: { kind: "found", zcta: "43004", medianHouseholdIncome: 78_000 } },
    );
    expect(result.score).toBe(0);
    expect(isVip(result.score, 70)).toBe(false);
    expect(result.signals).toEqual([
      { source: "profile", signal: "provider_match", value: "no provider matched", points: 0 },
      { source: "offline", signal: "order_value", value: "40.00 USD", points: 0 },
      {
        source: "offline",
        signal: "order_vs_store_percentile",
        value: "store has 3 USD orders, 20 needed",
        points: 0,
      },
      { source: "offline", signal: "email_domain", value: "gmail.com (free mail)", points: 0 },
      { source: "offline", signal: "repeat_purchases", value: 1, points: 0 },
      {
        source: "offline",
        signal: "lifetime_spend",
        value: "$40.00 over 1 order (the order itself)",
        points: 0,
      },
      {
        source: "offline",
        signal: "largest_order",
        value: "$40.00 (the latest order)",
        points: 0,
      },
      { source: "offline", signal: "area_median_income_usd", value: 78_000, points: 0 },
    ]);
  });
});

describe("computeScore: skipped signals say why", () => {
  it.each([
    [{ kind: "not_loaded" }, "ZIP income data not loaded"],
    [{ kind: "unknown_zip", zcta: "99999" }, "ZIP 99999 not in the income data"],
    [{ kind: "no_zip" }, "no ZIP code"],
    [{ kind: "not_us", country: "DE" }, "outside the US (DE)"],
    [{ kind: "invalid_zip", zipcode: "SW1A" }, "not a US ZIP code: SW1A"],
  ] as Array<[OfflineSignals["area"], string]>)("area %j", (area, value) => {
    expect(line(score({}, { area }), "area_median_income_usd")).toMatchObject({ value, points: 0 });
  });

  it("scores an order in another currency on the dollar bands at its converted value, naming the rate", () => {
    const result = score(
      {},
      {
        latestOrder: {
          kind: "order",
          total: "925.50",
          currency: "EUR",
          usd: {
            kind: "converted",
            usdTotal: "1001.39",
            quote: {
              currency: "EUR",
              perEur: "1",
              usdPerEur: "1.0820",
              date: "2026-11-26",
              source: "ECB",
            },
          },
        },
        storeRank: {
          kind: "prior",
          percentile: 98.4,
          storeOrders: 3,
          minimum: 20,
          currency: "EUR",
          usdTotal: "1001.39",
        },
      },
    );
    expect(line(result, "order_value")).toEqual({
      source: "offline",
      signal: "order_value",
      value: "€925.50 ≈ $1,001.39 at 1.0820 USD/EUR, ECB 2026-11-26",
      points: 25,
    });
    expect(line(result, "order_vs_store_percentile")).toMatchObject({
      value:
        "98.4 among typical online orders, as $1,001.39 (store has 3 EUR orders, 20 for its own)",
      points: 10,
    });
  });

  it("names a yen rate with the digits it needs", () => {
    const result = score(
      {},
      {
        latestOrder: {
          kind: "order",
          total: "150000",
          currency: "JPY",
          usd: {
            kind: "converted",
            usdTotal: "1033.18",
            quote: {
              currency: "JPY",
              perEur: "163.36",
              usdPerEur: "1.1252",
              date: "2025-05-09",
              source: "ECB",
            },
          },
        },
      },
    );
    expect(line(result, "order_value")).toMatchObject({
      value: "¥150,000 ≈ $1,033.18 at 0.006888 USD/JPY, ECB 2025-05-09",
      points: 25,
    });
  });

  it("says when a currency has no reference rate: nothing on the dollar bands, the store's own rank still counts", () => {
    const result = score(
      {},
      {
        latestOrder: {
          kind: "order",
          total: "5000.00",
          currency: "XOF",
          usd: { kind: "no_rate", currency: "XOF" },
        },
        storeRank: { kind: "ranked", percentile: 99.5, storeOrders: 40, currency: "XOF" },
      },
    );
    expect(line(result, "order_value")).toMatchObject({
      value: "5000.00 XOF (no reference rate for XOF)",
      points: 0,
    });
    expect(line(result, "order_vs_store_percentile")).toMatchObject({ value: 99.5, points: 15 });
  });

  it("explains a customer without an order total", () => {
    const result = score({}, { latestOrder: { kind: "none" }, storeRank: { kind: "no_order" } });
    expect(line(result, "order_value")).toMatchObject({
      value: "no order with a total",
      points: 0,
    });
    expect(line(result, "order_vs_store_percentile")).toMatchObject({
      value: "no order with a total",
      points: 0,
    });
  });

  it("uses the caller's reason for an empty profile, and notes a match with nothing that scores", () => {
    const none = computeScore({
      profile: {},
      offline: ORDINARY,
      noProfileReason: "no provider enabled",
    });
    expect(line(none, "provider_match").value).toBe("no provider enabled");
    expect(line(score({ fullName: "Jane Doe", location: "Boston" }), "provider_match").value).toBe(
      "matched, but nothing that scores",
    );
  });

  it("reads the seniority from the title when the provider gave none", () => {
    expect(line(score({ title: "Co-Founder & CEO" }), "seniority")).toMatchObject({
      value: 'Founder (from title "Co-Founder & CEO")',
      points: 35,
    });
    expect(() => line(score({ title: "Barista" }), "seniority")).toThrow(/no seniority/);
  });
});

describe("computeScore: the cap and the arithmetic", () => {
  it("caps at 100 with an explicit signal that takes the excess off", () => {
    const result = score(
      { seniority: "c_level", companyEmployees: 5000, netWorthUsd: 50e6, householdIncomeUsd: 1e6 },
      { latestOrder: { kind: "order", total: "3000.00", currency: "USD" } },
    );
    const raw = 35 + 10 + 35 + 30 + 30;
    expect(result.score).toBe(100);
    expect(result.signals.at(-1)).toEqual({
      source: "score",
      signal: "capped_at_100",
      value: raw,
      points: 100 - raw,
    });
    expectExplained(result);
  });

  it("has no cap signal at exactly 100", () => {
    const result = score({ seniority: "c_level", netWorthUsd: 10e6, householdIncomeUsd: 500_000 });
    expect(result.score).toBe(100);
    expect(result.signals.some((s) => s.source === "score")).toBe(false);
  });

  it("always sums to the score, stays within 0–100, and is deterministic", () => {
    let seed = 42;
    const rand = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const levels: Seniority[] = ["c_level", "founder", "vp", "director", "entry"];
    for (let i = 0; i < 300; i++) {
      const profile: ProfileFragment = {
        seniority: rand(2) ? levels[rand(levels.length)] : undefined,
        companyEmployees: rand(2) ? rand(20_000) : undefined,
        netWorthUsd: rand(2) ? rand(20_000_000) : undefined,
        householdIncomeUsd: rand(2) ? rand(900_000) : undefined,
        social: rand(2)
          ? [{ network: "x", handle: null, url: null, followers: rand(2_000_000) }]
          : [],
      };
      const offline: Partial<OfflineSignals> = {
        latestOrder: { kind: "order", total: `${rand(4000)}.${rand(100)}`, currency: "USD" },
        orderCount: rand(15),
        area: { kind: "found", zcta: "10021", medianHouseholdIncome: rand(260_000) },
      };
      const result = score(profile, offline);
      expectExplained(result);
      expect(score(profile, offline)).toEqual(result);
    }
  });
});

describe("isVip", () => {
  it.each([
    [71, 70, true],
    [70, 70, false],
    [69, 70, false],
    [0, 0, false],
    [1, 0, true],
    [100, 100, false],
    [100, 99, true],
  ])("score %i, threshold %i → %s (strictly above)", (s, threshold, vip) => {
    expect(isVip(s, threshold)).toBe(vip);
  });
});
