/**
 * A fake People Data Labs Person Enrichment API v5: `GET /v5/person/enrich?email=…` with
 * `X-Api-Key` (or PDL's `api_key` query parameter). Errors use PDL's body
 * `{"status": n, "error": {"type": …, "message": …}}`; a match is `{"status": 200, "likelihood",
 * "data": {...}}` with fields the plan does not include answered as `true`, as PDL does.
 *
 * PDL's rules applied here (https://docs.peopledatalabs.com/docs/reference-person-enrichment-api,
 * https://docs.peopledatalabs.com/docs/output-response-person-enrichment-api): a request's
 * `min_likelihood` makes a match less likely than it a 404 ("no records were found"); PDL
 * "charge[s] per match", so only a 200 is billed (`billedCount`), never a 404 or an error.
 */
import type { FakeProvider, FakeProviderOptions, LoggedRequest, Protocol } from "./fake-server.js";
import { startFakeProvider } from "./fake-server.js";
import { type FakePerson, fullName } from "./person.js";

export const FAKE_PDL_KEY = "test-pdl-key";

const ERROR_TYPES: Record<number, [string, string]> = {
  400: [
    "invalid_request_error",
    "Request object must contain at least one of: email, phone, profile, ...",
  ],
  401: ["authentication_error", "Invalid or missing API key"],
  402: [
    "payment_required",
    "You have hit your account maximum for person enrichment (all matches used)",
  ],
  403: ["forbidden", "Your API key does not have access to this endpoint"],
  404: ["not_found", "No records were found matching your request"],
  405: ["invalid_request_error", "Method not allowed"],
  429: ["rate_limit_error", "An error occurred due to requests hitting the API too quickly"],
  500: ["api_error", "An unexpected error occurred"],
  503: ["api_error", "The service is temporarily unavailable"],
};

const protocol: Protocol = {
  keyFor: (email) => email.trim().toLowerCase(),
  route(request, apiKey) {
    if (request.path !== "/v5/person/enrich") return { answer: { status: 404, body: error(404) } };
    if (request.method !== "GET" && request.method !== "POST")
      return { answer: { status: 405, body: error(405) } };
    const key = header(request, "x-api-key") ?? request.query.api_key ?? null;
    if (key === null || key !== apiKey) return { answer: { status: 401, body: error(401) } };
    const email = request.query.email?.trim().toLowerCase();
    if (email === undefined || email === "") return { answer: { status: 400, body: error(400) } };
    return { key: email, email };
  },
  match: (person, email, request) => ({
    status: 200,
    likelihood: person.pdlLikelihood,
    data: pdlPerson(person, email, request.query.titlecase === "true"),
    dataset_version: "31.0",
  }),
  matchAnswer(person, email, request) {
    // min_likelihood: the best match must be at least this likely to count as one, else 404.
    const min = Number(request.query.min_likelihood ?? 0);
    if (person.pdlLikelihood < min) return { status: 404, body: error(404) };
    return { status: 200, body: protocol.match(person, email, request) };
  },
  // PDL charges per match: a 200.
  bills: (answer) => answer.status === 200,
  error,
};

export function startFakePdl(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  return startFakeProvider(protocol, FAKE_PDL_KEY, options);
}

function error(status: number): unknown {
  const [type, message] = ERROR_TYPES[status] ?? ["api_error", `HTTP ${status}`];
  return { status, error: { type, message } };
}

function header(request: LoggedRequest, name: string): string | null {
  const value = request.headers[name];
  return typeof value === "string" ? value : null;
}

function pdlPerson(p: FakePerson, email: string, titlecase: boolean): Record<string, unknown> {
  const text = (s: string) => (titlecase ? s : s.toLowerCase());
  const location = `${p.city}, ${p.region}, ${p.country}`;
  return {
    id: `pdl-${Buffer.from(email).toString("hex").slice(0, 16)}`,
    full_name: text(fullName(p)),
    first_name: text(p.firstName),
    last_name: text(p.lastName),
    sex: null,
    linkedin_url: `linkedin.com/in/${p.linkedin}`,
    linkedin_username: p.linkedin,
    linkedin_id: "118937422",
    facebook_url: null,
    facebook_username: null,
    twitter_url: `twitter.com/${p.twitter}`,
    twitter_username: p.twitter,
    github_url: null,
    github_username: null,
    work_email: true,
    personal_emails: true,
    recommended_personal_email: true,
    mobile_phone: true,
    industry: text("Computer Software"),
    job_title: text(p.title),
    job_title_role: "operations",
    job_title_sub_role: null,
    job_title_class: "general_and_administrative",
    job_title_levels: p.pdlLevels,
    job_company_id: "acme-corporation",
    job_company_name: text(p.company),
    job_company_website: p.companyDomain,
    job_company_size: p.companySize,
    job_company_founded: 2004,
    job_company_industry: text("Computer Software"),
    job_company_inferred_revenue: p.companyRevenue,
    job_company_linkedin_url: `linkedin.com/company/${p.companyDomain.split(".")[0]}`,
    job_company_location_name: text(location),
    job_start_date: "2019-03",
    location_name: text(location),
    location_locality: text(p.city),
    location_region: text(p.region),
    location_country: text(p.country),
    location_continent: "north america",
    location_postal_code: true,
    inferred_salary: p.salary,
    inferred_years_experience: 18,
    skills: ["leadership", "strategy", "saas"],
    interests: [],
    experience: [
      {
        company: { name: text(p.company), size: p.companySize, website: p.companyDomain },
        start_date: "2019-03",
        end_date: null,
        title: { name: text(p.title), levels: p.pdlLevels },
        is_primary: true,
      },
    ],
    education: [],
    profiles: [
      { network: "linkedin", username: p.linkedin, url: `linkedin.com/in/${p.linkedin}` },
      { network: "twitter", username: p.twitter, url: `twitter.com/${p.twitter}` },
    ],
  };
}
