/**
 * The seniority a score uses: the provider's normalised level when it gave one, otherwise a
 * conservative reading of the job title (Gravatar and some records carry a title only). Only
 * the levels that earn points are inferred; an unrecognised title infers nothing.
 */
import type { ProfileFragment, Seniority } from "../providers/provider.js";

// Checked in order: "Founder & CEO" is a founder; "Vice President" is a VP, not a president.
const TITLE_RULES: Array<[RegExp, Seniority]> = [
  [/\b(co-?)?founder\b/i, "founder"],
  [/\b(chief \w+ officer|ceo|cfo|coo|cto|cio|cmo|cro|cpo|chro)\b/i, "c_level"],
  [/\b(s?vp|evp|vice[- ]president)\b/i, "vp"],
  [/\bpresident\b/i, "c_level"],
  [/\b(owner|proprietor)\b/i, "owner"],
  // "Partner" alone or "Partner at/, …" is the title; "Partner Manager" is a manager of partners.
  [
    /\b(managing|senior|general|founding|equity) partner\b|^partner(\s*$|\s*[,@&|(-]|\s+(at|in|of)\b)/i,
    "partner",
  ],
  [/\b(director|head of)\b/i, "director"],
];

export interface SeniorityReading {
  seniority: Seniority;
  fromTitle: boolean;
}

export function inferSeniority(title: string): Seniority | null {
  return TITLE_RULES.find(([re]) => re.test(title))?.[1] ?? null;
}

export function readSeniority(profile: ProfileFragment): SeniorityReading | null {
  if (profile.seniority) return { seniority: profile.seniority, fromTitle: false };
  const inferred = profile.title ? inferSeniority(profile.title) : null;
  return inferred ? { seniority: inferred, fromTitle: true } : null;
}
