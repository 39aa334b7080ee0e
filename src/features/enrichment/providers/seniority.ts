/**
 * Seniority from a job title, or from People Data Labs' canonical `job_title_levels`. When several
 * apply ("Founder & CEO", "VP and Head of Sales") the highest wins, in the order below.
 */
import type { Seniority } from "./provider.js";

export const SENIORITY_ORDER: readonly Seniority[] = [
  "c_level",
  "founder",
  "owner",
  "partner",
  "vp",
  "director",
  "manager",
  "senior",
  "entry",
];

const TITLE_RULES: ReadonlyArray<[Seniority, RegExp]> = [
  ["c_level", /\b(ceo|cto|cfo|coo|cmo|cio|ciso|cpo|cro|chro|cdo|cso)\b/],
  ["c_level", /\bchief\b/],
  // "President", but not "Vice President" (that is a VP).
  ["c_level", /(?<!vice[\s-])\bpresident\b/],
  ["founder", /\b(co-?)?founder\b|\bfounding (partner|member|ceo)\b/],
  ["owner", /\b(co-?)?owner\b|\bproprietor\b/],
  // "Partner", but not "Partner Manager", "Partnerships" or "Partner Marketing".
  [
    "partner",
    /\bpartner\b(?!s|\s+(manager|marketing|success|relations|programs?|development|engineer|account))/,
  ],
  ["vp", /\b(vp|svp|evp|avp)\b|\bvice[\s-]president\b/],
  ["director", /\bdirector\b|\bhead of\b/],
  ["manager", /\bmanager\b|\bsupervisor\b/],
  ["senior", /\b(senior|sr|principal|staff)\b/],
  ["entry", /\b(intern|junior|jr|trainee|apprentice|assistant)\b/],
];

/** People Data Labs' job_title_levels vocabulary. */
const PDL_LEVELS: Record<string, Seniority> = {
  cxo: "c_level",
  owner: "owner",
  partner: "partner",
  vp: "vp",
  director: "director",
  manager: "manager",
  senior: "senior",
  entry: "entry",
  training: "entry",
  unpaid: "entry",
};

export function seniorityFromTitle(title: string | null | undefined): Seniority | undefined {
  if (typeof title !== "string") return undefined;
  const text = title.toLowerCase();
  return highestSeniority(
    TITLE_RULES.filter(([, rule]) => rule.test(text)).map(([level]) => level),
  );
}

export function seniorityFromPdlLevels(levels: readonly string[]): Seniority | undefined {
  return highestSeniority(levels.map((level) => PDL_LEVELS[level.toLowerCase()]));
}

export function highestSeniority(
  levels: ReadonlyArray<Seniority | undefined>,
): Seniority | undefined {
  let best: Seniority | undefined;
  for (const level of levels) {
    if (level === undefined) continue;
    if (best === undefined || SENIORITY_ORDER.indexOf(level) < SENIORITY_ORDER.indexOf(best))
      best = level;
  }
  return best;
}
