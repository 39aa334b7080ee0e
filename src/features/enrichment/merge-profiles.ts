/**
 * Merges what several providers learned about one person into one normalised profile.
 *
 * The caller passes the fragments in provider precedence, most trusted first (the enrichment job
 * uses each provider's declared precedence, provider-registry.ts). Rules:
 * - every scalar field (text and figures alike) takes the first non-empty value in that order.
 *   Figures are not maxed: sources disagree because they measure differently, and taking the
 *   largest would let the most optimistic source win every time and inflate the score;
 * - social profiles are united and de-duplicated by network (case-insensitive): per network the
 *   entry with the highest follower count is kept (counts are snapshots of the same account,
 *   the larger one is the fresher crawl), and a missing handle or URL is filled from the others.
 * Empty means absent, null, a blank string, or a number that is not finite or is negative.
 */

import type { ProfileFragment, ProviderName, SocialProfile } from "./providers/provider.js";
import { PROVIDER_NAMES } from "./providers/provider-registry.js";

type ScalarKey = Exclude<keyof ProfileFragment, "social">;

const SCALAR_KEYS: ScalarKey[] = [
  "fullName",
  "title",
  "seniority",
  "company",
  "companyDomain",
  "companyEmployees",
  "companyRevenueUsd",
  "inferredSalaryUsd",
  "householdIncomeUsd",
  "netWorthUsd",
  "homeValueUsd",
  "location",
];

/**
 * Provider precedence when two disagree: identity data first, then social, then public records,
 * as each provider's declaration says (provider-registry.ts: a provider cannot be declared
 * without its precedence).
 */
export const PRECEDENCE: readonly ProviderName[] = PROVIDER_NAMES;

/** Merges the providers' matches, whatever order they came in, in PRECEDENCE order. */
export function mergeMatches(
  matches: Array<{ provider: ProviderName; profile: ProfileFragment }>,
): ProfileFragment {
  const ordered = [...matches].sort(
    (a, b) => PRECEDENCE.indexOf(a.provider) - PRECEDENCE.indexOf(b.provider),
  );
  return mergeProfiles(ordered.map((m) => m.profile));
}

export function mergeProfiles(fragments: ProfileFragment[]): ProfileFragment {
  const merged: ProfileFragment = {};
  for (const key of SCALAR_KEYS) {
    const found = fragments.find((f) => !isEmpty(f[key]));
    if (found) assign(merged, key, found);
  }
  const social = mergeSocial(fragments.flatMap((f) => f.social ?? []));
  if (social.length > 0) merged.social = social;
  return merged;
}

function assign<K extends ScalarKey>(target: ProfileFragment, key: K, source: ProfileFragment) {
  const value = source[key];
  target[key] = (typeof value === "string" ? value.trim() : value) as ProfileFragment[K];
}

export function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === "string") return value.trim() === "";
  if (typeof value === "number") return !Number.isFinite(value) || value < 0;
  return false;
}

function mergeSocial(profiles: SocialProfile[]): SocialProfile[] {
  const byNetwork = new Map<string, SocialProfile>();
  for (const p of profiles) {
    const network = p.network.trim().toLowerCase();
    if (network === "") continue;
    const entry: SocialProfile = {
      network,
      handle: nonBlank(p.handle),
      url: nonBlank(p.url),
      followers: validCount(p.followers),
    };
    const kept = byNetwork.get(network);
    if (!kept) {
      byNetwork.set(network, entry);
      continue;
    }
    const [winner, other] =
      (entry.followers ?? -1) > (kept.followers ?? -1) ? [entry, kept] : [kept, entry];
    byNetwork.set(network, {
      ...winner,
      handle: winner.handle ?? other.handle,
      url: winner.url ?? other.url,
    });
  }
  return [...byNetwork.values()];
}

function nonBlank(s: string | null): string | null {
  return s === null || s.trim() === "" ? null : s.trim();
}

function validCount(n: number | null): number | null {
  return n !== null && Number.isFinite(n) && n >= 0 ? n : null;
}
