/**
 * Small readers shared by the adapters. Provider schemas are loose on purpose: a leaf that is
 * missing, null, of the wrong type or hidden by the plan (PDL answers `true` for a field your
 * bundle does not include) is simply absent, while a wrong *structure* fails validation.
 */
import { z } from "zod";
import type { ProfileFragment, SocialProfile } from "./provider.js";

// Each reader is `.optional()` inside: zod 4 treats an object key as required unless its schema
// accepts a missing key, and a transform alone does not.

/** A non-empty trimmed string, else undefined. */
export const optText = z
  .unknown()
  .transform((v) => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined))
  .optional();

/** A finite non-negative number (or a numeric string), else undefined. */
export const optCount = z
  .unknown()
  .transform((v) => {
    const n = typeof v === "string" && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : v;
    return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : undefined;
  })
  .optional();

/** The strings of an array, else an empty list. */
export const optTextList = z
  .unknown()
  .transform((v) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []))
  .optional()
  .transform((v) => v ?? []);

/** "linkedin.com/in/jane" → "https://linkedin.com/in/jane"; non-web values are dropped. */
export function absoluteUrl(url: string | undefined): string | null {
  if (url === undefined) return null;
  const withScheme = /^https?:\/\//i.test(url) ? url : `https://${url}`;
  try {
    return new URL(withScheme).toString();
  } catch {
    return null;
  }
}

/** The profile's handle: the last path segment ("/in/jane-doe/" → "jane-doe"), without "@". */
export function handleFromUrl(url: string | null): string | null {
  if (url === null) return null;
  try {
    const segments = new URL(url).pathname.split("/").filter((s) => s !== "");
    const last = segments.at(-1);
    if (last === undefined || last.endsWith(".php")) return null;
    return decodeURIComponent(last).replace(/^@/, "");
  } catch {
    return null;
  }
}

/** "https://www.acme.com/about" or "acme.com" → "acme.com". */
export function domainFromWebsite(website: string | undefined): string | undefined {
  const url = absoluteUrl(website);
  if (url === null) return undefined;
  const host = new URL(url).hostname.toLowerCase().replace(/^www\./, "");
  return host.includes(".") ? host : undefined;
}

/** A social profile when at least a handle or a URL is known. */
export function social(
  network: string,
  handle: string | undefined | null,
  url: string | undefined | null,
  followers?: number,
): SocialProfile | undefined {
  const absolute = absoluteUrl(url ?? undefined);
  const name = handle ?? handleFromUrl(absolute);
  if (name === null && absolute === null) return undefined;
  return { network, handle: name, url: absolute, followers: followers ?? null };
}

/** Drops undefined fields and empty social lists so stored profiles stay tidy. */
export function compactFragment(fragment: ProfileFragment): ProfileFragment {
  const entries = Object.entries(fragment).filter(([key, value]) => {
    if (value === undefined) return false;
    return !(key === "social" && Array.isArray(value) && value.length === 0);
  });
  return Object.fromEntries(entries) as ProfileFragment;
}

/** Social profiles without undefined entries and without two entries for one network. */
export function socialList(items: ReadonlyArray<SocialProfile | undefined>): SocialProfile[] {
  const byNetwork = new Map<string, SocialProfile>();
  for (const item of items) {
    if (item === undefined) continue;
    const seen = byNetwork.get(item.network);
    byNetwork.set(item.network, seen === undefined ? item : mergeSocial(seen, item));
  }
  return [...byNetwork.values()];
}

function mergeSocial(a: SocialProfile, b: SocialProfile): SocialProfile {
  return {
    network: a.network,
    handle: a.handle ?? b.handle,
    url: a.url ?? b.url,
    followers:
      Math.max(a.followers ?? -1, b.followers ?? -1) < 0
        ? null
        : Math.max(a.followers ?? 0, b.followers ?? 0),
  };
}
