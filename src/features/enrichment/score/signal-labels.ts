/**
 * The human label of a score signal (`ScoreSignal.signal`), the one wording used wherever a
 * score is explained to people: the alert's reasons and the dashboard's "Why this score".
 * Known names get a written label; any other name is humanised, so a signal added to the score
 * later still reads sensibly before someone writes its label here.
 */
import type { Seniority } from "../providers/provider.js";

export const SIGNAL_LABELS: Readonly<Record<string, string>> = {
  seniority: "Seniority",
  company_employees: "Company size (employees)",
  company_revenue_usd: "Company revenue",
  inferred_salary_usd: "Inferred salary",
  household_income_usd: "Household income",
  net_worth_usd: "Net worth",
  home_value_usd: "Home value",
  social_followers: "Social followers",
  provider_match: "Provider match",
  paid_lookups: "Paid lookups",
  low_confidence: "Low-confidence match",
  order_value: "Order value",
  order_vs_store_percentile: "Order vs. the store's orders (percentile)",
  email_domain: "E-mail domain",
  repeat_purchases: "Orders so far",
  lifetime_spend: "Lifetime spend",
  largest_order: "Largest order",
  area_median_income_usd: "Area median household income",
};

/** How a seniority level reads to people, in signals, alerts and the profile panel. */
export const SENIORITY_LABELS: Readonly<Record<Seniority, string>> = {
  c_level: "C-level",
  founder: "Founder",
  owner: "Owner",
  partner: "Partner",
  vp: "VP",
  director: "Director",
  manager: "Manager",
  senior: "Senior",
  entry: "Entry level",
};

/** A stored seniority level for people; an unknown one is humanised. */
export function seniorityLabel(level: string): string {
  return Object.hasOwn(SENIORITY_LABELS, level)
    ? SENIORITY_LABELS[level as Seniority]
    : humanize(level);
}

/** "seniority" → "Seniority"; an unknown "someNewSignal" or "some_new_signal" → "Some new signal". */
export function signalLabel(name: string): string {
  return Object.hasOwn(SIGNAL_LABELS, name) ? (SIGNAL_LABELS[name] as string) : humanize(name);
}

function humanize(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
