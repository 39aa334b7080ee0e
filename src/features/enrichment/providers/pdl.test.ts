import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeAdapterContract } from "../../../../test/fakes/providers/adapter-contract.js";
import {
  FAKE_PDL_KEY,
  type FakeProvider,
  providerQuery,
  startFakePdl,
} from "../../../../test/fakes/providers/index.js";
import { createPdlProvider } from "./pdl.js";

describeAdapterContract({
  provider: "pdl",
  start: () => startFakePdl(),
  create: (fake, apiKey = FAKE_PDL_KEY) => createPdlProvider({ apiKey, baseUrl: fake.url }),
  permanent: [
    [400, "bad_request"],
    [402, "credits"],
    [403, "auth"],
  ],
  transient: [500, 502, 503],
});

describe("pdl adapter: requests and matches", () => {
  let fake: FakeProvider;
  const pdl = () => createPdlProvider({ apiKey: FAKE_PDL_KEY, baseUrl: fake.url });
  const lookup = (email: string) => pdl().lookup(providerQuery(email), AbortSignal.timeout(5_000));

  beforeAll(async () => {
    fake = await startFakePdl();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("asks GET /v5/person/enrich with the e-mail and the key in X-Api-Key", async () => {
    await lookup(" Jane.Doe@Example.com ");
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe("/v5/person/enrich");
    expect(request?.query).toEqual({
      email: "Jane.Doe@Example.com",
      titlecase: "true",
      min_likelihood: "6",
    });
    expect(request?.headers["x-api-key"]).toBe(FAKE_PDL_KEY);
    expect(request?.query).not.toHaveProperty("api_key");
  });

  it("maps a match to a normalised fragment and keeps the raw answer", async () => {
    const result = await lookup("jane.doe@example.com");
    expect(result).toEqual({
      kind: "matched",
      provider: "pdl",
      httpStatus: 200,
      confidence: "likelihood 9/10",
      profile: {
        fullName: "Jane Doe",
        title: "Chief Executive Officer",
        seniority: "c_level",
        company: "Acme Corporation",
        companyDomain: "acme.com",
        companyEmployees: 1001,
        companyRevenueUsd: 100_000_000,
        inferredSalaryUsd: 250_000,
        location: "San Francisco, California, United States",
        social: [
          {
            network: "linkedin",
            handle: "jane-doe",
            url: "https://linkedin.com/in/jane-doe",
            followers: null,
          },
          {
            network: "twitter",
            handle: "janedoe",
            url: "https://twitter.com/janedoe",
            followers: null,
          },
        ],
      },
      raw: expect.objectContaining({ status: 200, likelihood: 9 }),
    });
  });

  it("reads seniority from the levels and the title, the higher winning", async () => {
    fake.setBehaviour("sam.lee@example.com", {
      kind: "match",
      person: {
        title: "Founder",
        pdlLevels: ["owner"],
        salary: "150,000-250,000",
        companySize: "11-50",
      },
    });
    const result = await lookup("sam.lee@example.com");
    expect(result.kind).toBe("matched");
    if (result.kind !== "matched") return;
    expect(result.profile).toMatchObject({
      seniority: "founder",
      inferredSalaryUsd: 150_000,
      companyEmployees: 11,
    });
  });

  it("treats fields hidden by the plan (answered as true) as absent", async () => {
    fake.setBehaviour("hidden.fields@example.com", {
      kind: "raw",
      status: 200,
      body: {
        status: 200,
        likelihood: 6,
        data: { full_name: "hidden fields", job_title: true, job_title_levels: [] },
      },
    });
    const result = await lookup("hidden.fields@example.com");
    expect(result).toMatchObject({ kind: "matched", profile: { fullName: "hidden fields" } });
    if (result.kind === "matched") expect(result.profile).not.toHaveProperty("title");
  });

  it("answers permanent when a 200 lacks the data object", async () => {
    fake.setBehaviour("no.data@example.com", {
      kind: "raw",
      status: 200,
      body: { status: 200, likelihood: 3 },
    });
    const result = await lookup("no.data@example.com");
    expect(result).toMatchObject({ kind: "permanent", cause: "malformed_response" });
    if (result.kind === "permanent") expect(result.error).toMatch(/data/);
  });

  it("sends min_likelihood, so a weak match is PDL's unbilled 404, not a billed 200", async () => {
    fake.setBehaviour("weak.match@example.com", { kind: "match", person: { pdlLikelihood: 5 } });
    fake.setBehaviour("strong.match@example.com", { kind: "match", person: { pdlLikelihood: 7 } });
    const strict = createPdlProvider({ apiKey: FAKE_PDL_KEY, baseUrl: fake.url, minLikelihood: 7 });
    const ask = (email: string) => strict.lookup(providerQuery(email), AbortSignal.timeout(5_000));

    const weak = await ask("weak.match@example.com");
    expect(weak).toMatchObject({ kind: "not_found", provider: "pdl", httpStatus: 404 });
    expect(fake.requests[0]?.query.min_likelihood).toBe("7");
    expect(fake.billedCount()).toBe(0);

    const strong = await ask("strong.match@example.com");
    expect(strong).toMatchObject({ kind: "matched", confidence: "likelihood 7/10" });
    expect(fake.billedCount()).toBe(1);
  });

  it("still counts a 200 under the minimum as no match, saying why", async () => {
    fake.setBehaviour("ignored.minimum@example.com", {
      kind: "raw",
      status: 200,
      body: { status: 200, likelihood: 4, data: { full_name: "someone else" } },
    });
    const result = await lookup("ignored.minimum@example.com");
    expect(result).toMatchObject({
      kind: "not_found",
      httpStatus: 200,
      reason: "likelihood 4 is below the minimum of 6: treated as no match",
    });
  });

  it("reads PDL's X-RateLimit-Reset when a 429 has no Retry-After", async () => {
    const reset = String(Math.floor(Date.now() / 1000) + 20);
    fake.setBehaviour("busy@example.com", { kind: "rate_limited", rateLimitReset: reset });
    const result = await lookup("busy@example.com");
    expect(result.kind).toBe("transient");
    const wait = result.kind === "transient" ? (result.retryAfterMs ?? 0) : 0;
    expect(wait).toBeGreaterThan(15_000);
    expect(wait).toBeLessThanOrEqual(21_000);
  });
});
