/**
 * Which Admin API version a fake Shopify answers with, as Shopify does
 * (https://shopify.dev/docs/api/usage/versioning): a version is released each quarter on the 1st
 * of January, April, July and October and supported for at least 12 months; a request for a
 * version that is no longer supported is not refused but "falls forward" to the oldest
 * supported stable version, and every answer names the version that served it in the
 * `X-Shopify-API-Version` header.
 */

function supportEndsAt(version: string): number {
  const [year, month] = version.split("-").map(Number) as [number, number];
  return Date.UTC(year + 1, month - 1, 1);
}

function nextVersion(version: string): string {
  const [year, month] = version.split("-").map(Number) as [number, number];
  const next = month === 10 ? { y: year + 1, m: 1 } : { y: year, m: month + 3 };
  return `${next.y}-${String(next.m).padStart(2, "0")}`;
}

/** The version that answers a request for `requested` (a quarter's `YYYY-MM`) at `now`. */
export function servingVersion(requested: string, now: number): string {
  if (!/^\d{4}-(01|04|07|10)$/.test(requested)) return requested;
  let version = requested;
  while (supportEndsAt(version) <= now) version = nextVersion(version);
  return version;
}

/** The version in an Admin API URL (`/admin/api/2026-10/graphql.json`), or null. */
export function versionInUrl(url: string | undefined): string | null {
  return /^\/admin\/api\/(\d{4}-\d{2})\/graphql\.json$/.exec(url ?? "")?.[1] ?? null;
}
