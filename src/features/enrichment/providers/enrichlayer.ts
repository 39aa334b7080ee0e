/**
 * EnrichLayer (formerly Proxycurl), Reverse Email Lookup:
 * `GET {base}/api/v2/profile/resolve/email?email=…&lookup_depth=deep&enrich_profile=enrich`
 * with `Authorization: Bearer`. 200 = `{linkedin_profile_url, twitter_profile_url,
 * facebook_profile_url, similarity_score, profile: {...} | null}`; a 200 with no profile and no
 * URL is a miss, like 404. Per EnrichLayer's error table 403 means "out of credits" (permanent)
 * and 503 means "enrichment failed, please retry" (transient).
 * Docs: https://enrichlayer.com/docs/api/v2/contact-api/reverse-email-lookup
 */
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
import { compactFragment, optCount, optText, social, socialList } from "./profile-fields.js";
import type {
  EnrichmentProvider,
  ProfileFragment,
  ProviderQuery,
  ProviderResult,
} from "./provider.js";
import { declareProvider, keyed } from "./provider-declaration.js";
import { highestSeniority, seniorityFromTitle } from "./seniority.js";

export interface EnrichLayerSettings {
  apiKey: string;
  baseUrl: string;
  fetch?: FetchLike;
  /** The thread's shared outbound client (createProviders); without it the adapter builds one. */
  http?: OutboundHttp;
  now?: () => number;
}

const Experience = z.looseObject({
  title: optText,
  company: optText,
  company_linkedin_profile_url: optText,
  starts_at: z.unknown(),
  ends_at: z.unknown(),
});

const Profile = z.looseObject({
  full_name: optText,
  occupation: optText,
  headline: optText,
  public_identifier: optText,
  follower_count: optCount,
  connections: optCount,
  city: optText,
  state: optText,
  country_full_name: optText,
  country: optText,
  experiences: z.array(Experience).nullish(),
  inferred_salary: z.looseObject({ min: optCount, max: optCount }).nullish(),
  extra: z
    .looseObject({
      twitter_profile_id: optText,
      facebook_profile_id: optText,
      github_profile_id: optText,
    })
    .nullish(),
});

const ReverseEmailResult = z.looseObject({
  linkedin_profile_url: optText,
  twitter_profile_url: optText,
  facebook_profile_url: optText,
  url: optText,
  similarity_score: z.number().nullish(),
  profile: Profile.nullish(),
});

export type EnrichLayerResult = z.output<typeof ReverseEmailResult>;

export function createEnrichLayerProvider(settings: EnrichLayerSettings): EnrichmentProvider {
  const via = { fetch: settings.fetch, http: settings.http ?? createProviderHttp() };
  const now = settings.now ?? Date.now;
  return {
    name: "enrichlayer",
    async lookup(query: ProviderQuery, signal: AbortSignal): Promise<ProviderResult> {
      const url = new URL(`${settings.baseUrl}/api/v2/profile/resolve/email`);
      url.searchParams.set("email", query.email.trim());
      url.searchParams.set("lookup_depth", "deep");
      url.searchParams.set("enrich_profile", "enrich");
      const headers = { authorization: `Bearer ${settings.apiKey}` };
      const answer = await send("enrichlayer", { url: url.toString(), headers }, signal, via);
      if (!isAnswer(answer)) return answer;
      if (answer.status === 403) {
        const error = "HTTP 403: out of credits";
        return {
          kind: "permanent",
          provider: "enrichlayer",
          httpStatus: 403,
          error,
          cause: "credits",
          raw: answer.body,
        };
      }
      if (answer.status !== 200) return classifyStatus("enrichlayer", answer, now());
      const parsed = parseBody("enrichlayer", answer, ReverseEmailResult);
      if (!parsed.ok) return parsed.result;
      const profile = enrichLayerFragment(parsed.data);
      if (Object.keys(profile).length === 0) {
        return { kind: "not_found", provider: "enrichlayer", httpStatus: 200, raw: answer.body };
      }
      const similarity = parsed.data.similarity_score;
      return {
        kind: "matched",
        provider: "enrichlayer",
        httpStatus: 200,
        profile,
        raw: answer.body,
        ...(typeof similarity === "number" ? { confidence: `similarity ${similarity}` } : {}),
      };
    },
  };
}

export function enrichLayerFragment(result: EnrichLayerResult): ProfileFragment {
  const p = result.profile ?? undefined;
  // Experiences come newest first; the current role is the one that has not ended.
  const current = p?.experiences?.find((e) => e.ends_at === null || e.ends_at === undefined);
  const occupation = splitOccupation(p?.occupation);
  const title = current?.title ?? occupation.title;
  const linkedinUrl = result.linkedin_profile_url ?? result.url;
  return compactFragment({
    fullName: p?.full_name,
    title,
    // The headline is free text ("Helping founders…"), so only titles decide seniority.
    seniority: highestSeniority([seniorityFromTitle(title), seniorityFromTitle(occupation.title)]),
    company: current?.company ?? occupation.company,
    inferredSalaryUsd: p?.inferred_salary?.min,
    location: joinLocation([p?.city, p?.state, p?.country_full_name ?? p?.country]),
    social: socialList([
      social("linkedin", p?.public_identifier, linkedinUrl, p?.follower_count),
      social("twitter", p?.extra?.twitter_profile_id, result.twitter_profile_url),
      social("facebook", p?.extra?.facebook_profile_id, result.facebook_profile_url),
      social("github", p?.extra?.github_profile_id, undefined),
    ]),
  });
}

/** "Chief Executive Officer at Acme" → title and company. */
function splitOccupation(occupation: string | undefined): { title?: string; company?: string } {
  if (occupation === undefined) return {};
  const at = occupation.lastIndexOf(" at ");
  if (at <= 0) return { title: occupation };
  return { title: occupation.slice(0, at).trim(), company: occupation.slice(at + 4).trim() };
}

function joinLocation(parts: ReadonlyArray<string | undefined>): string | undefined {
  const unique = [...new Set(parts.filter((p): p is string => p !== undefined))];
  return unique.length === 0 ? undefined : unique.join(", ");
}

/** EnrichLayer, as Velvet knows it (provider-registry.ts lists the declarations). */
export const ENRICHLAYER_PROVIDER = declareProvider({
  label: "EnrichLayer",
  precedence: 2,
  envPrefix: "ENRICHLAYER",
  turnedOnBy: "key",
  brings: "social profiles, job",
  defaults: { baseUrl: "https://enrichlayer.com", ratePerMinute: 300, priceUsd: "0.30" },
  adapter: (settings, common) => createEnrichLayerProvider({ ...common, ...keyed(settings) }),
});

declare module "./provider.js" {
  interface ProviderNames {
    enrichlayer: true;
  }
}
