import { describe, expect, it } from "vitest";
import type { OfflineSignals } from "../offline-signals.js";
import { computeScore } from "./compute-score.js";
import { SIGNAL_LABELS, signalLabel } from "./signal-labels.js";

describe("signalLabel", () => {
  it("gives the written label of a known signal", () => {
    expect(signalLabel("net_worth_usd")).toBe("Net worth");
    expect(signalLabel("repeat_purchases")).toBe("Orders so far");
  });

  it("humanises a name it does not know, whatever its case", () => {
    expect(signalLabel("someNewSignal")).toBe("Some new signal");
    expect(signalLabel("capped_at_100")).toBe("Capped at 100");
    expect(signalLabel("toString")).toBe("To string");
  });

  it("has a written label for every signal the score produces", () => {
    const offline: OfflineSignals = {
      emailDomain: { kind: "corporate", domain: "acme.com" },
      latestOrder: { kind: "order", total: "950.00", currency: "USD" },
      storeRank: { kind: "ranked", percentile: 99, storeOrders: 40, currency: "USD" },
      orderCount: 2,
      lifetime: {
        kind: "spend",
        currency: "USD",
        total: "2150.00",
        largest: "1200.00",
        orders: 2,
        otherCurrencyOrders: 0,
        otherCurrencies: [],
      },
      area: { kind: "found", zcta: "94027", medianHouseholdIncome: 250_001 },
    };
    const full = computeScore({
      profile: {
        title: "Chief Executive Officer",
        companyEmployees: 2000,
        companyRevenueUsd: 1e8,
        inferredSalaryUsd: 3e5,
        householdIncomeUsd: 3e5,
        netWorthUsd: 5e6,
        homeValueUsd: 2e6,
        social: [{ network: "linkedin", handle: "a", url: null, followers: 12_000 }],
      },
      offline,
    });
    const unknown = computeScore({ profile: {}, offline });
    const names = [
      ...new Set(
        [...full.signals, ...unknown.signals]
          .filter((s) => s.source !== "score")
          .map((s) => s.signal),
      ),
    ];
    // Eight from the profile, "no provider matched", seven offline: a new one must be labelled.
    expect(names).toHaveLength(16);
    expect(names.filter((name) => !Object.hasOwn(SIGNAL_LABELS, name))).toEqual([]);
  });
});
