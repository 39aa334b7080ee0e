/** The score lines that come from the merged provider profile. */
import type { ProfileFragment } from "../providers/provider.js";
import type { ScoreSignal } from "./score-signal.js";
import { readSeniority } from "./seniority.js";
import { SENIORITY_LABELS } from "./signal-labels.js";
import {
  type Band,
  bandPoints,
  COMPANY_EMPLOYEES_BANDS,
  COMPANY_REVENUE_BANDS,
  HOME_VALUE_BANDS,
  HOUSEHOLD_INCOME_BANDS,
  INFERRED_SALARY_BANDS,
  NET_WORTH_BANDS,
  SENIORITY_POINTS,
  SOCIAL_FOLLOWERS_BANDS,
} from "./weights.js";

const FIGURES: Array<[keyof ProfileFragment, string, Band[]]> = [
  ["companyEmployees", "company_employees", COMPANY_EMPLOYEES_BANDS],
  ["companyRevenueUsd", "company_revenue_usd", COMPANY_REVENUE_BANDS],
  ["inferredSalaryUsd", "inferred_salary_usd", INFERRED_SALARY_BANDS],
  ["householdIncomeUsd", "household_income_usd", HOUSEHOLD_INCOME_BANDS],
  ["netWorthUsd", "net_worth_usd", NET_WORTH_BANDS],
  ["homeValueUsd", "home_value_usd", HOME_VALUE_BANDS],
];

export function profileSignals(
  profile: ProfileFragment,
  noProfileReason = "no provider matched",
): ScoreSignal[] {
  if (isEmptyProfile(profile)) {
    return [{ source: "profile", signal: "provider_match", value: noProfileReason, points: 0 }];
  }
  const signals: ScoreSignal[] = [];
  const seniority = readSeniority(profile);
  if (seniority) {
    signals.push({
      source: "profile",
      signal: "seniority",
      value: seniority.fromTitle
        ? `${SENIORITY_LABELS[seniority.seniority]} (from title "${profile.title}")`
        : SENIORITY_LABELS[seniority.seniority],
      points: SENIORITY_POINTS[seniority.seniority],
    });
  }
  for (const [key, signal, bands] of FIGURES) {
    const value = profile[key];
    if (typeof value === "number" && Number.isFinite(value)) {
      signals.push({ source: "profile", signal, value, points: bandPoints(value, bands) });
    }
  }
  const followers = maxFollowers(profile);
  if (followers !== null) {
    signals.push({
      source: "profile",
      signal: "social_followers",
      value: followers,
      points: bandPoints(followers, SOCIAL_FOLLOWERS_BANDS),
    });
  }
  if (signals.length === 0) {
    signals.push({
      source: "profile",
      signal: "provider_match",
      value: "matched, but nothing that scores",
      points: 0,
    });
  }
  return signals;
}

function maxFollowers(profile: ProfileFragment): number | null {
  const counts = (profile.social ?? [])
    .map((s) => s.followers)
    .filter((n): n is number => n !== null && Number.isFinite(n));
  return counts.length > 0 ? Math.max(...counts) : null;
}

function isEmptyProfile(profile: ProfileFragment): boolean {
  return Object.entries(profile).every(
    ([, v]) => v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0),
  );
}
