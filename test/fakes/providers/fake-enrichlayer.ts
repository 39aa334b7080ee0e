/**
 * A fake EnrichLayer Reverse Email Lookup:
 * `GET /api/v2/profile/resolve/email?email=…&lookup_depth=deep|superficial&enrich_profile=…`
 * with `Authorization: Bearer`. Errors use the Proxycurl-era body `{"code", "description", "name"}`;
 * 403 means out of credits and 503 "enrichment failed, please retry", as EnrichLayer documents.
 * A match carries the profile only when `enrich_profile=enrich` was asked for.
 */
import {
  bearer,
  type FakeProvider,
  type FakeProviderOptions,
  type Protocol,
  startFakeProvider,
} from "./fake-server.js";
import { type FakePerson, fullName } from "./person.js";

export const FAKE_ENRICHLAYER_KEY = "test-enrichlayer-key";

const ERRORS: Record<number, [string, string]> = {
  400: ["Bad Request", "Invalid parameters provided: `lookup_depth` is required"],
  401: ["Unauthorized", "Invalid API Key"],
  403: ["Forbidden", "You have run out of credits"],
  404: ["Not Found", "Person not found"],
  410: ["Gone", "This API is deprecated"],
  429: ["Too Many Requests", "Rate limited. Please retry"],
  500: [
    "Internal Server Error",
    "There is an error with our API. Please contact us for assistance",
  ],
  503: ["Service Unavailable", "Enrichment failed, please retry."],
};

const protocol: Protocol = {
  keyFor: (email) => email.trim().toLowerCase(),
  route(request, apiKey) {
    if (request.path !== "/api/v2/profile/resolve/email" || request.method !== "GET") {
      return { answer: { status: 404, body: error(404) } };
    }
    if (bearer(request.headers) !== apiKey) return { answer: { status: 401, body: error(401) } };
    const email = request.query.email?.trim().toLowerCase();
    const depth = request.query.lookup_depth;
    if (!email || (depth !== "deep" && depth !== "superficial"))
      return { answer: { status: 400, body: error(400) } };
    return { key: email, email };
  },
  match: (person, email, request) =>
    reverseEmailResult(person, email, request.query.enrich_profile === "enrich"),
  error,
};

export function startFakeEnrichLayer(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  return startFakeProvider(protocol, FAKE_ENRICHLAYER_KEY, options);
}

function error(status: number): unknown {
  const [name, description] = ERRORS[status] ?? ["Error", `HTTP ${status}`];
  return { code: status, description, name };
}

function reverseEmailResult(
  p: FakePerson,
  email: string,
  enrich: boolean,
): Record<string, unknown> {
  const linkedin = `https://www.linkedin.com/in/${p.linkedin}/`;
  return {
    email,
    linkedin_profile_url: linkedin,
    twitter_profile_url: `https://twitter.com/${p.twitter}`,
    facebook_profile_url: null,
    url: linkedin,
    similarity_score: 0.92,
    backwards_compatibility_notes: null,
    last_updated: "2025-05-02T10:11:12Z",
    profile: enrich ? profile(p) : null,
  };
}

function profile(p: FakePerson): Record<string, unknown> {
  return {
    public_identifier: p.linkedin,
    profile_pic_url: `https://media.example/${p.linkedin}.jpg`,
    background_cover_image_url: null,
    first_name: p.firstName,
    last_name: p.lastName,
    full_name: fullName(p),
    follower_count: p.linkedinFollowers,
    occupation: `${p.title} at ${p.company}`,
    headline: `${p.title} at ${p.company} | Building the future of commerce`,
    summary: "Operator, investor and occasional writer.",
    country: "US",
    country_full_name: p.country,
    city: p.city,
    state: p.region,
    experiences: [
      {
        starts_at: { day: 1, month: 3, year: 2019 },
        ends_at: null,
        company: p.company,
        company_linkedin_profile_url: `https://www.linkedin.com/company/${p.companyDomain.split(".")[0]}`,
        company_facebook_profile_url: null,
        title: p.title,
        description: null,
        location: `${p.city}, ${p.region}`,
        logo_url: null,
      },
      {
        starts_at: { day: 1, month: 6, year: 2012 },
        ends_at: { day: 28, month: 2, year: 2019 },
        company: "Globex",
        company_linkedin_profile_url: "https://www.linkedin.com/company/globex",
        title: "Director of Operations",
        description: null,
        location: null,
        logo_url: null,
      },
    ],
    education: [],
    languages: ["English"],
    accomplishment_organisations: [],
    accomplishment_publications: [],
    accomplishment_honors_awards: [],
    accomplishment_patents: [],
    accomplishment_courses: [],
    accomplishment_projects: [],
    accomplishment_test_scores: [],
    volunteer_work: [],
    certifications: [],
    connections: 500,
    people_also_viewed: [],
    recommendations: [],
    activities: [],
    similarly_named_profiles: [],
    articles: [],
    groups: [],
    skills: ["Leadership", "Strategy"],
    inferred_salary: null,
    gender: null,
    birth_date: null,
    industry: "Computer Software",
    extra: {
      github_profile_id: null,
      facebook_profile_id: null,
      twitter_profile_id: p.twitter,
      website: null,
    },
    interests: [],
    personal_emails: [],
    personal_numbers: [],
  };
}
