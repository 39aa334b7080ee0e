import { createHash } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { describeAdapterContract } from "../../../../test/fakes/providers/adapter-contract.js";
import {
  FAKE_GRAVATAR_KEY,
  type FakeProvider,
  providerQuery,
  startFakeGravatar,
} from "../../../../test/fakes/providers/index.js";
import { createGravatarProvider } from "./gravatar.js";

describeAdapterContract({
  provider: "gravatar",
  start: () => startFakeGravatar(),
  create: (fake, apiKey = FAKE_GRAVATAR_KEY) =>
    createGravatarProvider({ apiKey, baseUrl: fake.url }),
  permanent: [
    [400, "bad_request"],
    [403, "auth"],
  ],
  transient: [500, 503],
});

describe("gravatar adapter: requests and matches", () => {
  let fake: FakeProvider;
  const lookup = (email: string, apiKey: string | null = null) =>
    createGravatarProvider({ apiKey, baseUrl: fake.url }).lookup(
      providerQuery(email),
      AbortSignal.timeout(5_000),
    );

  beforeAll(async () => {
    fake = await startFakeGravatar();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  it("asks /v3/profiles/{sha256 of the trimmed, lower-cased e-mail}, without a key when none is set", async () => {
    await lookup("  Jane.Doe@Example.COM ");
    const expected = createHash("sha256").update("jane.doe@example.com").digest("hex");
    const [request] = fake.requests;
    expect(request?.method).toBe("GET");
    expect(request?.path).toBe(`/v3/profiles/${expected}`);
    expect(request?.headers).not.toHaveProperty("authorization");
  });

  it("answers 429 past Gravatar's hourly quota, counted apart with and without the key", async () => {
    const small = await startFakeGravatar({ quotaPerHour: { keyless: 3, keyed: 5 } });
    try {
      const ask = (apiKey: string | null) =>
        createGravatarProvider({ apiKey, baseUrl: small.url }).lookup(
          providerQuery("jane.doe@example.com"),
          AbortSignal.timeout(5_000),
        );
      for (let i = 0; i < 3; i++) expect((await ask(null)).kind).toBe("matched");
      expect(await ask(null)).toMatchObject({ kind: "transient", httpStatus: 429 });
      for (let i = 0; i < 5; i++) expect((await ask(FAKE_GRAVATAR_KEY)).kind).toBe("matched");
      expect(await ask(FAKE_GRAVATAR_KEY)).toMatchObject({ kind: "transient", httpStatus: 429 });
    } finally {
      await small.close();
    }
  });

  it("holds Gravatar's default quota: the 101st keyless request of an hour is refused", async () => {
    const ask = () =>
      fetch(`${fake.url}/v3/profiles/${"a".repeat(64)}`).then(async (r) => ({
        status: r.status,
        body: await r.json(),
      }));
    for (let i = 0; i < 100; i++) expect((await ask()).status).toBe(200);
    expect(await ask()).toEqual({
      status: 429,
      body: { error: "Too many requests", code: "rate_limit_exceeded" },
    });
  });

  it("sends the key as a bearer token when one is set", async () => {
    const result = await lookup("jane.doe@example.com", FAKE_GRAVATAR_KEY);
    expect(result.kind).toBe("matched");
    expect(fake.requests[0]?.headers.authorization).toBe(`Bearer ${FAKE_GRAVATAR_KEY}`);
  });

  it("maps a profile, leaving out hidden verified accounts", async () => {
    fake.setBehaviour("jane.doe@example.com", { kind: "match" });
    const result = await lookup("jane.doe@example.com");
    expect(result).toEqual({
      kind: "matched",
      provider: "gravatar",
      httpStatus: 200,
      profile: {
        fullName: "Jane Doe",
        title: "Chief Executive Officer",
        seniority: "c_level",
        company: "Acme Corporation",
        location: "San Francisco, California",
        social: [
          {
            network: "twitter",
            handle: "janedoe",
            url: "https://twitter.com/janedoe",
            followers: null,
          },
          {
            network: "linkedin",
            handle: "jane-doe",
            url: "https://www.linkedin.com/in/jane-doe",
            followers: null,
          },
          {
            network: "gravatar",
            handle: "jane-doe",
            url: "https://gravatar.com/jane-doe",
            followers: null,
          },
        ],
      },
      raw: expect.objectContaining({ display_name: "Jane Doe" }),
    });
  });

  it("scripts by e-mail match on the hash", async () => {
    fake.setBehaviour("someone@example.com", { kind: "not_found" });
    expect(await lookup("SOMEONE@example.com")).toMatchObject({
      kind: "not_found",
      httpStatus: 404,
    });
    expect(fake.requests[0]?.email).toBe("someone@example.com");
  });
});
