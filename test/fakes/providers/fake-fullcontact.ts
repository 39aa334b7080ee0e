/**
 * A fake FullContact Person Enrich v3: `POST /v3/person.enrich` with a JSON body holding `email`
 * and `Authorization: Bearer`. Errors are `{"status": n, "message": …}`; 404 is "Profile not
 * found"; the `raw` behaviour with status 202 plays FullContact's "queued for search".
 */
import {
  bearer,
  type FakeProvider,
  type FakeProviderOptions,
  type Protocol,
  startFakeProvider,
} from "./fake-server.js";
import { type FakePerson, fullName } from "./person.js";

export const FAKE_FULLCONTACT_KEY = "test-fullcontact-key";

const MESSAGES: Record<number, string> = {
  202: "Queued for search. Please retry your query shortly.",
  400: "Invalid request: an email, phone, profile or name and location is required",
  401: "401 Unauthorized - Invalid or missing API key",
  403: "403 Forbidden - Your plan does not include this endpoint",
  404: "Profile not found",
  405: "Method not allowed",
  429: "Rate limit exceeded",
  500: "Internal server error",
  503: "Service unavailable",
};

/** FullContact's 202 answer, for `{kind: "raw", ...fullContactQueued}`. */
export const fullContactQueued = { status: 202, body: { status: 202, message: MESSAGES[202] } };

const protocol: Protocol = {
  keyFor: (email) => email.trim().toLowerCase(),
  route(request, apiKey) {
    if (request.path !== "/v3/person.enrich") return { answer: { status: 404, body: error(404) } };
    if (request.method !== "POST") return { answer: { status: 405, body: error(405) } };
    if (bearer(request.headers) !== apiKey) return { answer: { status: 401, body: error(401) } };
    const body = request.body as { email?: unknown; confidence?: unknown } | null;
    const json = String(request.headers["content-type"] ?? "").startsWith("application/json");
    const email = typeof body?.email === "string" ? body.email.trim().toLowerCase() : "";
    if (!json || email === "") return { answer: { status: 400, body: error(400) } };
    // FullContact refuses a confidence other than its four levels (its client checks the same).
    const confidence = body?.confidence;
    if (confidence !== undefined && !["LOW", "MED", "HIGH", "MAX"].includes(String(confidence)))
      return { answer: { status: 400, body: error(400) } };
    return { key: email, email };
  },
  match: (person, email) => personResponse(person, email),
  error,
};

export function startFakeFullContact(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  return startFakeProvider(protocol, FAKE_FULLCONTACT_KEY, options);
}

function error(status: number): unknown {
  return { status, message: MESSAGES[status] ?? `HTTP ${status}` };
}

function personResponse(p: FakePerson, email: string): Record<string, unknown> {
  const location = `${p.city}, ${p.region}, ${p.country}`;
  return {
    fullName: fullName(p),
    ageRange: "40-49",
    gender: "Female",
    location,
    title: p.title,
    organization: p.company,
    twitter: `https://twitter.com/${p.twitter}`,
    linkedin: `https://www.linkedin.com/in/${p.linkedin}`,
    facebook: null,
    bio: `${p.title} at ${p.company}.`,
    avatar: `https://img.fullcontact.com/sandbox/${p.linkedin}.png`,
    website: `https://${p.companyDomain}`,
    details: {
      name: { given: p.firstName, family: p.lastName, full: fullName(p) },
      age: { range: "40-49", value: 45 },
      gender: "Female",
      emails: [{ label: "work", value: email }],
      phones: [],
      profiles: {
        twitter: {
          username: p.twitter,
          userid: "48291734",
          url: `https://twitter.com/${p.twitter}`,
          service: "twitter",
          followers: p.twitterFollowers,
          following: 312,
        },
        linkedin: {
          username: p.linkedin,
          url: `https://www.linkedin.com/in/${p.linkedin}`,
          service: "linkedin",
        },
      },
      locations: [{ city: p.city, region: p.region, country: p.country, formatted: location }],
      employment: [
        {
          name: p.company,
          domain: p.companyDomain,
          current: true,
          title: p.title,
          start: { year: 2019, month: 3 },
        },
        { name: "Globex", domain: "globex.com", current: false, title: "Director of Operations" },
      ],
      photos: [],
      education: [],
      urls: [],
      interests: [],
      household: {
        homeInfo: {
          dwellingType: "Single Family",
          homeMarketValue: p.homeValue,
          lengthOfResidence: "11-15 Years",
        },
        finance: {
          income: p.householdIncome,
          netWorth: p.netWorth,
          discretionarySpendingIncome: "$50,000+",
        },
        presence: { children: "No" },
        locationInfo: { carrierRoute: "C001", designatedMarketArea: "807", seniorityRank: "1" },
      },
    },
    updated: "2025-01-15",
  };
}
