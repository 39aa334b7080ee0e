import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeAdapterContract } from "../../../../test/fakes/providers/adapter-contract.js";
import {
  FAKE_FULLCONTACT_KEY,
  type FakeProvider,
  fullContactQueued,
  providerQuery,
  startFakeFullContact,
} from "../../../../test/fakes/providers/index.js";
import { createFullContactProvider, FULLCONTACT_QUEUED_RETRY_MS } from "./fullcontact.js";

describeAdapterContract({
  provider: "fullcontact",
  start: () => startFakeFullContact(),
  create: (fake, apiKey = FAKE_FULLCONTACT_KEY) =>
    createFullContactProvider({ apiKey, baseUrl: fake.url }),
  permanent: [
    [400, "bad_request"],
    [403, "auth"],
  ],
  transient: [500, 503],
});

describe("fullcontact adapter: requests and matches", () => {
  let fake: FakeProvider;
  const lookup = (email: string) =>
    createFullContactProvider({ apiKey: FAKE_FULLCONTACT_KEY, baseUrl: fake.url }).lookup(
      providerQuery(email),
      AbortSignal.timeout(5_000),
    );

  beforeAll(async () => {
    fake = await startFakeFullContact();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("POSTs the e-mail as JSON to /v3/person.enrich with a bearer token", async () => {
    await lookup("jane.doe@example.com");
    const [request] = fake.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/v3/person.enrich");
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.headers.authorization).toBe(`Bearer ${FAKE_FULLCONTACT_KEY}`);
    // FullContact's own default confidence (95 %) unless FULLCONTACT_CONFIDENCE says otherwise.
    expect(request?.body).toEqual({ email: "jane.doe@example.com", confidence: "HIGH" });
    const strict = createFullContactProvider({
      apiKey: FAKE_FULLCONTACT_KEY,
      baseUrl: fake.url,
      confidence: "MAX",
    });
    await strict.lookup(providerQuery("jane.doe@example.com"), AbortSignal.timeout(5_000));
    expect(fake.requests[1]?.body).toEqual({ email: "jane.doe@example.com", confidence: "MAX" });
  });

  it("maps a match, with the lower bounds of the household bands", async () => {
    const result = await lookup("jane.doe@example.com");
    expect(result).toEqual({
      kind: "matched",
      provider: "fullcontact",
      httpStatus: 200,
      confidence: "at least 95 % (HIGH)",
      profile: {
        fullName: "Jane Doe",
        title: "Chief Executive Officer",
        seniority: "c_level",
        company: "Acme Corporation",
        companyDomain: "acme.com",
        householdIncomeUsd: 250_000,
        netWorthUsd: 1_000_000,
        homeValueUsd: 1_000_000,
        location: "San Francisco, California, United States",
        social: [
          {
            network: "twitter",
            handle: "janedoe",
            url: "https://twitter.com/janedoe",
            followers: 48_200,
          },
          {
            network: "linkedin",
            handle: "jane-doe",
            url: "https://www.linkedin.com/in/jane-doe",
            followers: null,
          },
        ],
      },
      raw: expect.objectContaining({ fullName: "Jane Doe" }),
    });
  });

  it("parses other band shapes", async () => {
    fake.setBehaviour("modest@example.com", {
      kind: "match",
      person: {
        householdIncome: "$100,000 - $149,999",
        netWorth: "Less than $1",
        homeValue: "$250K - $499K",
      },
    });
    const result = await lookup("modest@example.com");
    expect(result).toMatchObject({
      kind: "matched",
      profile: { householdIncomeUsd: 100_000, netWorthUsd: 0, homeValueUsd: 250_000 },
    });
  });

  it("reads finance from details.finance in older answers", async () => {
    fake.setBehaviour("older@example.com", {
      kind: "raw",
      status: 200,
      body: {
        fullName: "Old Shape",
        details: { finance: { income: "$150,000 - $174,999", netWorth: "$500,000+" } },
      },
    });
    const result = await lookup("older@example.com");
    expect(result).toMatchObject({
      kind: "matched",
      profile: { fullName: "Old Shape", householdIncomeUsd: 150_000, netWorthUsd: 500_000 },
    });
  });

  it("answers transient (pending) with a short wait on 202 queued", async () => {
    fake.setBehaviour("queued@example.com", [
      { kind: "raw", ...fullContactQueued },
      { kind: "match" },
    ]);
    const first = await lookup("queued@example.com");
    expect(first).toMatchObject({
      kind: "transient",
      httpStatus: 202,
      cause: "pending",
      retryAfterMs: FULLCONTACT_QUEUED_RETRY_MS,
    });
    expect(await lookup("queued@example.com")).toMatchObject({ kind: "matched" });
  });
});
