/**
 * The interface every enrichment source implements. A lookup never throws for an expected
 * failure: it returns a result value, and `transient` carries whether and when to retry.
 */

/**
 * The names of the providers: each provider's file adds its own by declaration merging
 * (`declare module "./provider.js" { interface ProviderNames { pdl: true } }`), and the
 * registry (provider-registry.ts) must hold a declaration for each.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging, one name per provider.
export interface ProviderNames {}

/** A provider's name, as stored with its answers. */
export type ProviderName = keyof ProviderNames & string;

export interface ProviderQuery {
  email: string;
  emailNormalized: string;
  firstName: string;
  lastName: string;
  phone: string | null;
}

export type Seniority =
  | "c_level"
  | "founder"
  | "owner"
  | "partner"
  | "vp"
  | "director"
  | "manager"
  | "senior"
  | "entry";

export interface SocialProfile {
  network: string;
  handle: string | null;
  url: string | null;
  followers: number | null;
}

/** What one provider learned, already normalised; every field optional. Money in USD. */
export interface ProfileFragment {
  fullName?: string;
  title?: string;
  seniority?: Seniority;
  company?: string;
  companyDomain?: string;
  /** Employee count (the lower bound when the source gives a range). */
  companyEmployees?: number;
  companyRevenueUsd?: number;
  /** Inferred yearly salary (the lower bound of the source's band). */
  inferredSalaryUsd?: number;
  householdIncomeUsd?: number;
  netWorthUsd?: number;
  homeValueUsd?: number;
  location?: string;
  social?: SocialProfile[];
}

/**
 * Why a lookup failed for now. `rate_limited` (a 429, or our own limiter) and `pending`
 * (FullContact still searching) say nothing about the provider's health: a caller may reschedule
 * them after retryAfterMs without spending an attempt, within some bound. `circuit_open` *is*
 * the outage and must spend attempts, or an outage would never end in `failed`. `aborted` means
 * the caller's own signal fired (shutdown, lease end).
 */
export type TransientCause =
  | "timeout"
  | "network"
  | "server_error"
  | "rate_limited"
  | "circuit_open"
  | "pending"
  | "aborted";

/** Why retrying the same lookup will not help: fix the key, buy credits, or fix the adapter. */
export type PermanentCause =
  | "auth"
  | "credits"
  | "bad_request"
  | "malformed_response"
  | "unexpected_status";

export type ProviderResult = (
  | {
      kind: "matched";
      provider: ProviderName;
      httpStatus: number;
      profile: ProfileFragment;
      raw: unknown;
      /** How sure the provider is that this is the person ("likelihood 9/10"), when it says. */
      confidence?: string;
    }
  | {
      kind: "not_found";
      provider: ProviderName;
      httpStatus: number;
      raw: unknown;
      /** Why an answer that named someone counts as no match (a confidence below the minimum). */
      reason?: string;
    }
  | {
      kind: "transient";
      provider: ProviderName;
      httpStatus: number | null;
      error: string;
      /** From Retry-After (429/503) or the circuit breaker: when trying again makes sense. */
      retryAfterMs?: number;
      cause?: TransientCause;
      raw?: unknown;
    }
  | {
      kind: "permanent";
      provider: ProviderName;
      httpStatus: number | null;
      error: string;
      cause?: PermanentCause;
      raw?: unknown;
    }
) & {
  /**
   * `raw` already serialised as UTF-8 JSON, set instead of it by the provider thread. The bytes
   * are moved across threads, not copied, and live outside the JS heap while they wait for the
   * attempt's other answers: the garbage collector neither copies nor scans them.
   */
  rawJson?: Uint8Array;
  /**
   * How long the provider call took, in milliseconds, when one was made (set by the
   * resilience wrapper; absent when the call was refused locally: circuit open, rate limit).
   */
  durationMs?: number;
};

export interface EnrichmentProvider {
  name: ProviderName;
  lookup(query: ProviderQuery, signal: AbortSignal): Promise<ProviderResult>;
}
