/**
 * Each line of the explanation that comes from a provider's data carries that provider's
 * confidence in the match ("pdl: likelihood 9/10"). The provider is the one the merge took the
 * field from (merge-profiles.ts: the first, in precedence, that has it); "not given" when it
 * states no confidence (Gravatar, an EnrichLayer answer without a similarity score).
 */
import { isEmpty, PRECEDENCE } from "./merge-profiles.js";
import type { ProfileFragment, ProviderName } from "./providers/provider.js";
import type { ScoreSignal } from "./score/score-signal.js";

/** The profile fields each provider-data signal is read from. */
const FIELDS: Readonly<Record<string, ReadonlyArray<keyof ProfileFragment>>> = {
  seniority: ["seniority", "title"],
  company_employees: ["companyEmployees"],
  company_revenue_usd: ["companyRevenueUsd"],
  inferred_salary_usd: ["inferredSalaryUsd"],
  household_income_usd: ["householdIncomeUsd"],
  net_worth_usd: ["netWorthUsd"],
  home_value_usd: ["homeValueUsd"],
  social_followers: ["social"],
};

export interface ConfidentMatch {
  provider: ProviderName;
  profile: ProfileFragment;
  confidence?: string;
}

export function withSourceConfidence(
  signals: ScoreSignal[],
  matches: ConfidentMatch[],
): ScoreSignal[] {
  const ordered = [...matches].sort(
    (a, b) => PRECEDENCE.indexOf(a.provider) - PRECEDENCE.indexOf(b.provider),
  );
  return signals.map((signal) => {
    const fields = signal.source === "profile" ? FIELDS[signal.signal] : undefined;
    if (fields === undefined) return signal;
    const source = ordered.find((m) => fields.some((f) => hasValue(m.profile[f])));
    if (source === undefined) return signal;
    return { ...signal, confidence: `${source.provider}: ${source.confidence ?? "not given"}` };
  });
}

function hasValue(value: unknown): boolean {
  return Array.isArray(value) ? value.length > 0 : !isEmpty(value);
}
