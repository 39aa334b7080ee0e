/**
 * Where a dated API version stands in its platform's lifecycle, from the date in its name and
 * the clock. Klaviyo names each revision by its release day (`2026-10-15`); Shopify names each
 * version by its release month (`2026-10`, released on the 1st). Each platform serves a version
 * for a fixed time after that date and then stops (Klaviyo answers 410; Shopify answers with
 * the oldest version it still supports instead), so the date alone says when to move on:
 * - current: younger than the policy's warning age;
 * - ageing: past the warning age, still served (warn, with the day it ends);
 * - ended: past the platform's support window (warn louder: requests fail or change shape).
 */

export interface VersionPolicy {
  /** "Klaviyo", "Shopify": how people name the platform. */
  platform: string;
  /** The environment variable that picks the version (KLAVIYO_REVISION). */
  setting: string;
  /** What the platform calls one ("API revision", "Admin API version"). */
  noun: string;
  /** Months after release from which Velvet warns. */
  warnAfterMonths: number;
  /** Months after release after which the platform no longer serves the version. */
  endsAfterMonths: number;
  /** What the platform does with a request for an ended version, for the warning. */
  afterEnd: string;
}

export type VersionStage = "current" | "ageing" | "ended";

export interface VersionStanding {
  platform: string;
  setting: string;
  version: string;
  stage: VersionStage;
  releasedAt: number;
  warnFrom: number;
  endsAt: number;
  /** What to tell an operator; null while the version is current. */
  warning: string | null;
}

const DATED = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/;

/** The release instant (UTC midnight) a version's name gives, or null when it names no date. */
export function versionReleasedAt(version: string): number | null {
  const m = DATED.exec(version);
  if (m === null) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), m[3] === undefined ? 1 : Number(m[3])];
  const at = Date.UTC(year, month - 1, day);
  const back = new Date(at);
  // 2026-02-30 would roll over to March: a name that is no real day is no version.
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day) return null;
  return at;
}

function addMonths(at: number, months: number): number {
  const d = new Date(at);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate());
}

function day(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

export function versionStanding(
  policy: VersionPolicy,
  version: string,
  now: number,
): VersionStanding {
  const releasedAt = versionReleasedAt(version);
  if (releasedAt === null)
    throw new Error(`${policy.setting}: "${version}" is not a dated ${policy.noun}`);
  const warnFrom = addMonths(releasedAt, policy.warnAfterMonths);
  const endsAt = addMonths(releasedAt, policy.endsAfterMonths);
  const stage: VersionStage = now >= endsAt ? "ended" : now >= warnFrom ? "ageing" : "current";
  const named = `${policy.platform} ${policy.noun} ${version} (${policy.setting})`;
  const warning =
    stage === "current"
      ? null
      : stage === "ageing"
        ? `${named} is more than ${policy.warnAfterMonths} months old: ${policy.platform} stops serving it on ${day(endsAt)}, after which ${policy.afterEnd}. Set ${policy.setting} to ${policy.platform}'s current ${policy.noun} before then.`
        : `${named} is no longer served by ${policy.platform} since ${day(endsAt)}: ${policy.afterEnd}. Set ${policy.setting} to ${policy.platform}'s current ${policy.noun}.`;
  return {
    platform: policy.platform,
    setting: policy.setting,
    version,
    stage,
    releasedAt,
    warnFrom,
    endsAt,
    warning,
  };
}
