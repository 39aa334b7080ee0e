/**
 * An enrichment provider's settings as config.ts reads them from the environment: its key, its
 * address, its pace and its price; Gravatar's pace from its own hourly quotas.
 */

export interface ProviderSettings {
  apiKey: string | null;
  baseUrl: string;
  /** Requests a minute, paced by a token bucket; a fraction for an hourly quota (Gravatar's). */
  ratePerMinute: number;
  /** What the provider bills per answered lookup, a decimal string in USD. */
  priceUsd: string;
}

/** Gravatar's default hourly quotas (https://docs.gravatar.com/rest-api, "Rate Limits"). */
const GRAVATAR_QUOTA_PER_HOUR = { keyless: 100, keyed: 1_000 } as const;

/**
 * Gravatar's pace: GRAVATAR_RATE_LIMIT_PER_MIN when set, else its hourly quota for the tier the
 * key gives, paced evenly by the provider's token bucket (a request every 36 s without a key,
 * every 3.6 s with one), so no hour holds more than Gravatar allows.
 */
export function gravatarPerMinute(
  configured: number | undefined,
  apiKey: string | undefined,
): number {
  if (configured !== undefined) return configured;
  const keyed = (apiKey ?? "").trim() !== "";
  return (keyed ? GRAVATAR_QUOTA_PER_HOUR.keyed : GRAVATAR_QUOTA_PER_HOUR.keyless) / 60;
}

export function provider(
  apiKey: string | undefined,
  baseUrl: string,
  ratePerMinute: number,
  priceUsd: string,
): ProviderSettings {
  const key = apiKey?.trim() ?? "";
  const base = baseUrl.replace(/\/+$/, "");
  return { apiKey: key === "" ? null : key, baseUrl: base, ratePerMinute, priceUsd };
}
