/**
 * Gravatar REST API v3 (a free social signal): `GET {base}/v3/profiles/{sha256(e-mail)}`, where
 * the e-mail is trimmed and lower-cased as Gravatar requires; `Authorization: Bearer` is optional
 * (it raises Gravatar's rate limit from 100 to 1,000 requests per hour and shows more accounts).
 * 200 = a public profile; 404 = none; 401/403 = permanent; 429 and 5xx = transient.
 * Docs: https://docs.gravatar.com/rest/api-data-specifications/data-models
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import type { OutboundHttp } from "../../../lib/outbound/outbound-http.js";
import {
  classifyStatus,
  createProviderHttp,
  type FetchLike,
  isAnswer,
  parseBody,
  send,
} from "./http-call.js";
import { compactFragment, optText, social, socialList } from "./profile-fields.js";
import type {
  EnrichmentProvider,
  ProfileFragment,
  ProviderQuery,
  ProviderResult,
} from "./provider.js";
import { declareProvider } from "./provider-declaration.js";
import { seniorityFromTitle } from "./seniority.js";

export interface GravatarSettings {
  apiKey: string | null;
  baseUrl: string;
  fetch?: FetchLike;
  /** The thread's shared outbound client (createProviders); without it the adapter builds one. */
  http?: OutboundHttp;
  now?: () => number;
}

const VerifiedAccount = z.looseObject({
  service_type: optText,
  service_label: optText,
  url: optText,
  is_hidden: z.unknown(),
});

const GravatarProfile = z.looseObject({
  hash: z.string(),
  display_name: optText,
  profile_url: optText,
  location: optText,
  job_title: optText,
  company: optText,
  verified_accounts: z.array(VerifiedAccount).nullish(),
});

export type GravatarProfile = z.output<typeof GravatarProfile>;

export function gravatarHash(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

export function createGravatarProvider(settings: GravatarSettings): EnrichmentProvider {
  const via = { fetch: settings.fetch, http: settings.http ?? createProviderHttp() };
  const now = settings.now ?? Date.now;
  return {
    name: "gravatar",
    async lookup(query: ProviderQuery, signal: AbortSignal): Promise<ProviderResult> {
      const url = `${settings.baseUrl}/v3/profiles/${gravatarHash(query.email)}`;
      const headers: Record<string, string> =
        settings.apiKey === null ? {} : { authorization: `Bearer ${settings.apiKey}` };
      const answer = await send("gravatar", { url, headers }, signal, via);
      if (!isAnswer(answer)) return answer;
      if (answer.status !== 200) return classifyStatus("gravatar", answer, now());
      const parsed = parseBody("gravatar", answer, GravatarProfile);
      if (!parsed.ok) return parsed.result;
      const profile = gravatarFragment(parsed.data);
      return { kind: "matched", provider: "gravatar", httpStatus: 200, profile, raw: answer.body };
    },
  };
}

export function gravatarFragment(profile: GravatarProfile): ProfileFragment {
  const accounts = (profile.verified_accounts ?? []).filter((a) => a.is_hidden !== true);
  return compactFragment({
    // Gravatar's display name is what the person chose to be called, usually their name.
    fullName: profile.display_name,
    title: profile.job_title,
    seniority: seniorityFromTitle(profile.job_title),
    company: profile.company,
    location: profile.location,
    social: socialList([
      ...accounts.map((a) =>
        social(a.service_type ?? a.service_label ?? "other", undefined, a.url),
      ),
      social("gravatar", undefined, profile.profile_url),
    ]),
  });
}

/** Gravatar's default hourly quotas (https://docs.gravatar.com/rest-api, "Rate Limits"). */
const GRAVATAR_QUOTA_PER_HOUR = { keyless: 100, keyed: 1_000 } as const;

/**
 * Gravatar's pace without GRAVATAR_RATE_LIMIT_PER_MIN: its hourly quota for the tier the key
 * gives, paced evenly by the provider's token bucket (a request every 36 s without a key, every
 * 3.6 s with one), so no hour holds more than Gravatar allows.
 */
export function gravatarQuotaPerMinute(apiKey: string | undefined): number {
  const hasKey = (apiKey ?? "").trim() !== "";
  return (hasKey ? GRAVATAR_QUOTA_PER_HOUR.keyed : GRAVATAR_QUOTA_PER_HOUR.keyless) / 60;
}

/** Gravatar, as Velvet knows it (provider-registry.ts lists the declarations). */
export const GRAVATAR_PROVIDER = declareProvider({
  label: "Gravatar",
  precedence: 4,
  envPrefix: "GRAVATAR",
  turnedOnBy: "flag",
  brings:
    "public profile and linked social accounts, free of charge; it sends Gravatar the SHA-256 hash of each new customer's e-mail address, never the address itself",
  defaults: {
    baseUrl: "https://api.gravatar.com",
    ratePerMinute: gravatarQuotaPerMinute,
    priceUsd: "0",
  },
  adapter: (settings, common) =>
    createGravatarProvider({ ...common, apiKey: settings.apiKey, baseUrl: settings.baseUrl }),
});

declare module "./provider.js" {
  interface ProviderNames {
    gravatar: true;
  }
}
