/**
 * FullContact, Person Enrich v3 (public records and household insights):
 * `POST {base}/v3/person.enrich` with `{"email": …}` and `Authorization: Bearer`.
 * 200 = a person; 404 = no match ("profile not found"); 202 = queued, FullContact is still
 * searching (transient, `pending`, try again shortly); 400/401/403 = permanent; 429 and 5xx
 * = transient. Insights bundles give bands ("$100,000 - $149,999", "$1,000,000+"): we keep the
 * lower bound. Household finance is read from `details.household.finance` (current docs) and,
 * failing that, from `details.finance` (older responses); the home value from
 * `details.household.homeInfo.homeMarketValue` (the docs' name; `homeValue` is accepted too).
 * Docs: https://docs.fullcontact.com/docs/multi-field-request
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
import {
  compactFragment,
  domainFromWebsite,
  optCount,
  optText,
  social,
  socialList,
} from "./profile-fields.js";
import type {
  EnrichmentProvider,
  ProfileFragment,
  ProviderQuery,
  ProviderResult,
} from "./provider.js";
import { declareProvider, keyed } from "./provider-declaration.js";
import { lowerBound } from "./ranges.js";
import { retryAfterFromHeaders } from "./retry-after.js";
import { seniorityFromTitle } from "./seniority.js";

export interface FullContactSettings {
  apiKey: string;
  baseUrl: string;
  fetch?: FetchLike;
  /** The thread's shared outbound client (createProviders); without it the adapter builds one. */
  http?: OutboundHttp;
  now?: () => number;
  /**
   * The match confidence FullContact must reach to answer (LOW 60 %, MED 80 %, HIGH 95 %, MAX
   * 98 %); below it FullContact itself answers "not found". Default HIGH, FullContact's own.
   */
  confidence?: FullContactConfidence;
}

export type FullContactConfidence = "LOW" | "MED" | "HIGH" | "MAX";

/** FullContact's levels, as its request-properties docs define them. */
const CONFIDENCE_PERCENT: Record<FullContactConfidence, number> = {
  LOW: 60,
  MED: 80,
  HIGH: 95,
  MAX: 98,
};

/** FullContact asks to retry a queued (202) search shortly. */
export const FULLCONTACT_QUEUED_RETRY_MS = 3_000;

const Finance = z.looseObject({ income: optText, narrowBandIncome: optText, netWorth: optText });
const HomeInfo = z.looseObject({ homeMarketValue: optText, homeValue: optText });
const SocialEntry = z.looseObject({
  username: optText,
  userid: optText,
  url: optText,
  followers: optCount,
});
const Employment = z.looseObject({
  name: optText,
  domain: optText,
  title: optText,
  current: z.unknown(),
});

const Details = z.looseObject({
  employment: z.array(Employment).nullish(),
  profiles: z.record(z.string(), SocialEntry).nullish(),
  household: z.looseObject({ finance: Finance.nullish(), homeInfo: HomeInfo.nullish() }).nullish(),
  finance: Finance.nullish(),
});

const PersonResponse = z.looseObject({
  fullName: optText,
  title: optText,
  organization: optText,
  location: optText,
  twitter: optText,
  linkedin: optText,
  details: Details.nullish(),
});

export type FullContactPerson = z.output<typeof PersonResponse>;

export function createFullContactProvider(settings: FullContactSettings): EnrichmentProvider {
  const via = { fetch: settings.fetch, http: settings.http ?? createProviderHttp() };
  const now = settings.now ?? Date.now;
  return {
    name: "fullcontact",
    async lookup(query: ProviderQuery, signal: AbortSignal): Promise<ProviderResult> {
      const request = {
        url: `${settings.baseUrl}/v3/person.enrich`,
        method: "POST" as const,
        headers: { authorization: `Bearer ${settings.apiKey}` },
        json: { email: query.email.trim(), confidence: settings.confidence ?? "HIGH" },
      };
      const answer = await send("fullcontact", request, signal, via);
      if (!isAnswer(answer)) return answer;
      if (answer.status === 202) {
        const retryAfterMs =
          retryAfterFromHeaders(answer.headers, now()) ?? FULLCONTACT_QUEUED_RETRY_MS;
        const error = "HTTP 202: FullContact is still searching for this person";
        return {
          kind: "transient",
          provider: "fullcontact",
          httpStatus: 202,
          error,
          retryAfterMs,
          cause: "pending",
          raw: answer.body,
        };
      }
      if (answer.status !== 200) return classifyStatus("fullcontact", answer, now());
      const parsed = parseBody("fullcontact", answer, PersonResponse);
      if (!parsed.ok) return parsed.result;
      const profile = fullContactFragment(parsed.data);
      const level = settings.confidence ?? "HIGH";
      return {
        kind: "matched",
        provider: "fullcontact",
        httpStatus: 200,
        profile,
        raw: answer.body,
        confidence: `at least ${CONFIDENCE_PERCENT[level]} % (${level})`,
      };
    },
  };
}

export function fullContactFragment(person: FullContactPerson): ProfileFragment {
  const details = person.details ?? undefined;
  const employment = details?.employment ?? [];
  const current = employment.find((e) => e.current === true) ?? employment[0];
  const finance = details?.household?.finance ?? details?.finance ?? undefined;
  const home = details?.household?.homeInfo ?? undefined;
  const title = person.title ?? current?.title;
  const profiles = Object.entries(details?.profiles ?? {});
  return compactFragment({
    fullName: person.fullName,
    title,
    seniority: seniorityFromTitle(title),
    company: person.organization ?? current?.name,
    companyDomain: domainFromWebsite(current?.domain),
    // The narrow band is the tighter of the two when FullContact gives both.
    householdIncomeUsd: lowerBound(finance?.narrowBandIncome ?? finance?.income),
    netWorthUsd: lowerBound(finance?.netWorth),
    homeValueUsd: lowerBound(home?.homeMarketValue ?? home?.homeValue),
    location: person.location,
    social: socialList([
      ...profiles.map(([network, p]) =>
        social(network, p.username ?? p.userid, p.url, p.followers),
      ),
      social("twitter", undefined, person.twitter),
      social("linkedin", undefined, person.linkedin),
    ]),
  });
}

/** FullContact, as Velvet knows it (provider-registry.ts lists the declarations). */
export const FULLCONTACT_PROVIDER = declareProvider({
  label: "FullContact",
  precedence: 3,
  envPrefix: "FULLCONTACT",
  turnedOnBy: "key",
  brings: "income, net worth, home value",
  defaults: { baseUrl: "https://api.fullcontact.com", ratePerMinute: 600, priceUsd: "0" },
  ownVariables: {
    // The match confidence FullContact must reach (its `confidence`: LOW, MED, HIGH, MAX).
    FULLCONTACT_CONFIDENCE: z.enum(["LOW", "MED", "HIGH", "MAX"]).default("HIGH"),
  },
  own: (env) => ({ confidence: env.FULLCONTACT_CONFIDENCE as FullContactConfidence }),
  adapter: (settings, common) =>
    createFullContactProvider({ ...common, ...keyed(settings), confidence: settings.confidence }),
});

declare module "./provider.js" {
  interface ProviderNames {
    fullcontact: true;
  }
}
