import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeAdapterContract } from "../../../../test/fakes/providers/adapter-contract.js";
import {
  FAKE_ENRICHLAYER_KEY,
  type FakeProvider,
  providerQuery,
  startFakeEnrichLayer,
} from "../../../../test/fakes/providers/index.js";
import { createEnrichLayerProvider } from "./enrichlayer.js";

describeAdapterContract({
  provider: "enrichlayer",
  start: () => startFakeEnrichLayer(),
  create: (fake, apiKey = FAKE_ENRICHLAYER_KEY) =>
    createEnrichLayerProvider({ apiKey, baseUrl: fake.url }),
  // EnrichLayer documents 403 as "you have run out of credits".
  permanent: [
    [400, "bad_request"],
    [403, "credits"],
    [410, "unexpected_status"],
  ],
  transient: [500, 503],
});

describe("enrichlayer adapter: requests and matches", () => {
  let fake: FakeProvider;
  const lookup = (email: string) =>
    createEnrichLayerProvider({ apiKey: FAKE_ENRICHLAYER_KEY, baseUrl: fake.url }).lookup(
      providerQuery(email),
      AbortSignal.timeout(5_000),
    );

  beforeAll(async () => {
    fake = await startFakeEnrichLayer();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("asks the reverse e-mail lookup, deep and enriched, with a bearer token", async () => {
    await lookup("jane.doe@example.com");
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/api/v2/profile/resolve/email");
    expect(request?.query).toEqual({
      email: "jane.doe@example.com",
      lookup_depth: "deep",
      enrich_profile: "enrich",
    });
    expect(request?.headers.authorization).toBe(`Bearer ${FAKE_ENRICHLAYER_KEY}`);
  });

  it("maps the profile: current role, location and social reach", async () => {
    const result = await lookup("jane.doe@example.com");
    expect(result).toEqual({
      kind: "matched",
      provider: "enrichlayer",
      httpStatus: 200,
      confidence: "similarity 0.92",
      profile: {
        fullName: "Jane Doe",
        title: "Chief Executive Officer",
        seniority: "c_level",
        company: "Acme Corporation",
        location: "San Francisco, California, United States",
        social: [
          {
            network: "linkedin",
            handle: "jane-doe",
            url: "https://www.linkedin.com/in/jane-doe/",
            followers: 12_400,
          },
          {
            network: "twitter",
            handle: "janedoe",
            url: "https://twitter.com/janedoe",
            followers: null,
          },
        ],
      },
      raw: expect.objectContaining({ similarity_score: 0.92 }),
    });
  });

  it("takes the title from the occupation when no role is current", async () => {
    fake.setBehaviour("vp.person@example.com", {
      kind: "raw",
      status: 200,
      body: {
        linkedin_profile_url: "https://www.linkedin.com/in/vp-person",
        profile: {
          full_name: "Vp Person",
          occupation: "VP of Sales at Globex",
          experiences: [],
          follower_count: 900,
        },
      },
    });
    const result = await lookup("vp.person@example.com");
    expect(result).toMatchObject({
      kind: "matched",
      profile: { title: "VP of Sales", company: "Globex", seniority: "vp" },
    });
  });

  it("keeps the URLs when only they were found (profile null)", async () => {
    fake.setBehaviour("urls.only@example.com", {
      kind: "raw",
      status: 200,
      body: {
        linkedin_profile_url: "https://www.linkedin.com/in/urls-only",
        twitter_profile_url: null,
        facebook_profile_url: "https://www.facebook.com/urls.only",
        profile: null,
      },
    });
    const result = await lookup("urls.only@example.com");
    expect(result).toMatchObject({
      kind: "matched",
      profile: {
        social: [
          { network: "linkedin", handle: "urls-only", followers: null },
          { network: "facebook", handle: "urls.only" },
        ],
      },
    });
  });

  it("reads a 200 with nothing found as not_found", async () => {
    fake.setBehaviour("nobody@example.com", {
      kind: "raw",
      status: 200,
      body: {
        linkedin_profile_url: null,
        twitter_profile_url: null,
        facebook_profile_url: null,
        profile: null,
      },
    });
    const result = await lookup("nobody@example.com");
    expect(result).toMatchObject({ kind: "not_found", provider: "enrichlayer", httpStatus: 200 });
  });
});
