/**
 * People Data Labs, Person Enrichment API v5 (identity database):
 * `GET {base}/v5/person/enrich?email=…&titlecase=true` with `X-Api-Key`.
 * The request carries `min_likelihood` (PDL advises 6): PDL then answers 404 when its best match
 * is less likely than that, and a 404 is not billed ("We charge per match"), so a weak match
 * costs nothing instead of a billed 200 thrown away here.
 * 200 = one matched person under `data`, with PDL's `likelihood` (1–10) that it is the person
 * asked about; a 200 below the minimum all the same counts as no match, with the reason;
 * 404 = no match (not billed, not a failure);
 * 400/401/402/403 = permanent; 429 = transient after Retry-After or X-RateLimit-Reset; 5xx = transient.
 * Docs: https://docs.peopledatalabs.com/docs/output-response-person-enrichment-api (likelihood,
 * `min_likelihood`), https://docs.peopledatalabs.com/docs/reference-person-enrichment-api
 * (200 per match, 404 otherwise, billed per match).
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
  optTextList,
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
import { highestSeniority, seniorityFromPdlLevels, seniorityFromTitle } from "./seniority.js";

export interface PdlSettings {
  apiKey: string;
  baseUrl: string;
  fetch?: FetchLike;
  /** The thread's shared outbound client (createProviders); without it the adapter builds one. */
  http?: OutboundHttp;
  now?: () => number;
  /**
   * Sent as `min_likelihood`: a match less likely than this (1–10) is PDL's unbilled 404;
   * default 6, as PDL advises.
   */
  minLikelihood?: number;
}

const PdlPerson = z.looseObject({
  full_name: optText,
  job_title: optText,
  job_title_levels: optTextList,
  job_company_name: optText,
  job_company_website: optText,
  job_company_size: optText,
  job_company_employee_count: optCount,
  job_company_inferred_revenue: optText,
  inferred_salary: optText,
  location_name: optText,
  linkedin_url: optText,
  linkedin_username: optText,
  twitter_url: optText,
  twitter_username: optText,
  github_url: optText,
  github_username: optText,
  facebook_url: optText,
  facebook_username: optText,
});

const PdlResponse = z.looseObject({
  status: z.number().optional(),
  likelihood: z.number().nullish(),
  data: PdlPerson,
});

export type PdlPerson = z.output<typeof PdlPerson>;

export function createPdlProvider(settings: PdlSettings): EnrichmentProvider {
  const via = { fetch: settings.fetch, http: settings.http ?? createProviderHttp() };
  const now = settings.now ?? Date.now;
  return {
    name: "pdl",
    async lookup(query: ProviderQuery, signal: AbortSignal): Promise<ProviderResult> {
      const url = new URL(`${settings.baseUrl}/v5/person/enrich`);
      url.searchParams.set("email", query.email.trim());
      url.searchParams.set("titlecase", "true");
      const min = settings.minLikelihood ?? 6;
      url.searchParams.set("min_likelihood", String(min));
      const headers = { "x-api-key": settings.apiKey };
      const answer = await send("pdl", { url: url.toString(), headers }, signal, via);
      if (!isAnswer(answer)) return answer;
      if (answer.status !== 200) return classifyStatus("pdl", answer, now());
      const parsed = parseBody("pdl", answer, PdlResponse);
      if (!parsed.ok) return parsed.result;
      const likelihood = parsed.data.likelihood ?? null;
      // PDL applies min_likelihood itself; a 200 under it (a PDL that ignored it) still counts
      // as no match.
      if (likelihood !== null && likelihood < min) {
        const reason = `likelihood ${likelihood} is below the minimum of ${min}: treated as no match`;
        return { kind: "not_found", provider: "pdl", httpStatus: 200, raw: answer.body, reason };
      }
      const profile = pdlFragment(parsed.data.data);
      const confidence = likelihood === null ? {} : { confidence: `likelihood ${likelihood}/10` };
      return {
        kind: "matched",
        provider: "pdl",
        httpStatus: 200,
        profile,
        raw: answer.body,
        ...confidence,
      };
    },
  };
}

export function pdlFragment(person: PdlPerson): ProfileFragment {
  return compactFragment({
    fullName: person.full_name,
    title: person.job_title,
    seniority: highestSeniority([
      seniorityFromPdlLevels(person.job_title_levels),
      seniorityFromTitle(person.job_title),
    ]),
    company: person.job_company_name,
    companyDomain: domainFromWebsite(person.job_company_website),
    // The exact count when PDL has it, else the lower bound of the size band ("1001-5000").
    companyEmployees: person.job_company_employee_count ?? lowerBound(person.job_company_size),
    companyRevenueUsd: lowerBound(person.job_company_inferred_revenue),
    inferredSalaryUsd: lowerBound(person.inferred_salary),
    location: person.location_name,
    social: socialList([
      social("linkedin", person.linkedin_username, person.linkedin_url),
      social("twitter", person.twitter_username, person.twitter_url),
      social("github", person.github_username, person.github_url),
      social("facebook", person.facebook_username, person.facebook_url),
    ]),
  });
}

/** People Data Labs, as Velvet knows it (provider-registry.ts lists the declarations). */
export const PDL_PROVIDER = declareProvider({
  label: "People Data Labs",
  precedence: 1,
  envPrefix: "PDL",
  turnedOnBy: "key",
  brings: "job, seniority, company",
  defaults: { baseUrl: "https://api.peopledatalabs.com", ratePerMinute: 100, priceUsd: "0.28" },
  ownVariables: {
    // PDL's match likelihood (1–10) below which an answer counts as no match (PDL advises ≥ 6).
    PDL_MIN_LIKELIHOOD: z.coerce.number().int().min(1).max(10).default(6),
  },
  own: (env) => ({ minLikelihood: env.PDL_MIN_LIKELIHOOD as number }),
  adapter: (settings, common) =>
    createPdlProvider({ ...common, ...keyed(settings), minLikelihood: settings.minLikelihood }),
});

declare module "./provider.js" {
  interface ProviderNames {
    pdl: true;
  }
}
