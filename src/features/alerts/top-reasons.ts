/**
 * The "why" of an alert: the score's explained signals (`enrichments.signals`, an array of
 * {source, signal, value, points}) that earned the most points, as short readable lines. Known
 * signal names get a friendly label; any other name is humanised, so a new signal added to the
 * score shows up without a change here. Malformed entries are skipped, never fatal: an alert
 * with fewer reasons is better than no alert.
 */
import { z } from "zod";

export interface AlertReason {
  label: string;
  /** The observed value, already formatted for people. */
  value: string | null;
  points: number;
}

const SignalSchema = z.object({
  source: z.string(),
  signal: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  points: z.number(),
});

const LABELS: Record<string, string> = {
  seniority: "Seniority",
  company_employees: "Company size (employees)",
  company_revenue_usd: "Company revenue",
  inferred_salary_usd: "Inferred salary",
  household_income_usd: "Household income",
  net_worth_usd: "Net worth",
  home_value_usd: "Home value",
  social_followers: "Social followers",
  order_value: "Order value",
  order_vs_store_percentile: "Order vs. the store's orders (percentile)",
  email_domain: "E-mail domain",
  repeat_purchases: "Orders so far",
  area_median_income_usd: "Area median household income",
};

export const MAX_REASONS = 3;

export function topReasons(signalsJson: string, max = MAX_REASONS): AlertReason[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(signalsJson);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const signals = parsed.flatMap((entry) => {
    const s = SignalSchema.safeParse(entry);
    // The cap line ("capped_at_100", source "score") explains arithmetic, not the customer.
    return s.success && s.data.points > 0 && s.data.source !== "score" ? [s.data] : [];
  });
  return signals
    .map((s, index) => ({ s, index }))
    .sort((a, b) => b.s.points - a.s.points || a.index - b.index)
    .slice(0, max)
    .map(({ s }) => ({
      label: LABELS[s.signal] ?? humanize(s.signal),
      value: formatValue(s.signal, s.value ?? null),
      points: s.points,
    }));
}

/** "Seniority: c_level (+25)" */
export function describeReason(reason: AlertReason): string {
  const value = reason.value === null ? "" : `: ${reason.value}`;
  return `${reason.label}${value} (+${reason.points})`;
}

function formatValue(signal: string, value: string | number | boolean | null): string | null {
  if (value === null) return null;
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (typeof value === "number") {
    const n = value.toLocaleString("en-US", { maximumFractionDigits: 2 });
    return signal.endsWith("_usd") ? `$${n}` : n;
  }
  const text = value.replace(/\s+/g, " ").trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function humanize(name: string): string {
  const words = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/[_-]+/g, " ")
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
