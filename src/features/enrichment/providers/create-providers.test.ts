import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_GRAVATAR_KEY,
  type FakeProviders,
  providerQuery,
  startFakeProviders,
} from "../../../../test/fakes/providers/index.js";
import { loadConfig } from "../../../config.js";
import { createProviders } from "./create-providers.js";
import { PROVIDER_NAMES } from "./provider-registry.js";

const query = providerQuery("jane.doe@example.com");
const lookupSignal = () => AbortSignal.timeout(5_000);

describe("createProviders", () => {
  let fakes: FakeProviders;
  beforeAll(async () => {
    fakes = await startFakeProviders();
  });
  afterAll(() => fakes.close());
  beforeEach(() => {
    for (const fake of fakes.all()) fake.reset();
  });

  it("turns on no network provider by default", () => {
    expect(createProviders(loadConfig({}).enrichment)).toEqual([]);
  });

  it("turns on each configured provider, in a fixed order, without contacting any", async () => {
    // The fakes configure every declared provider; the order is precedence's, which
    // provider-registry.test.ts spells out.
    const providers = createProviders(loadConfig(fakes.env).enrichment);
    expect(providers.map((p) => p.name)).toEqual(PROVIDER_NAMES);
    expect(fakes.all().map((f) => f.requestCount())).toEqual(PROVIDER_NAMES.map(() => 0));

    const results = await Promise.all(providers.map((p) => p.lookup(query, lookupSignal())));
    expect(results.map((r) => [r.provider, r.kind])).toEqual(
      PROVIDER_NAMES.map((name) => [name, "matched"]),
    );
    expect(fakes.all().map((f) => f.requestCount())).toEqual(PROVIDER_NAMES.map(() => 1));
  });

  it("turns Gravatar on with only its key, and sends it", async () => {
    const env = { GRAVATAR_API_KEY: FAKE_GRAVATAR_KEY, GRAVATAR_BASE_URL: fakes.gravatar.url };
    const providers = createProviders(loadConfig(env).enrichment);
    expect(providers.map((p) => p.name)).toEqual(["gravatar"]);
    await providers[0]?.lookup(query, lookupSignal());
    expect(fakes.gravatar.requests[0]?.headers.authorization).toBe(`Bearer ${FAKE_GRAVATAR_KEY}`);
  });

  it("applies the configured timeout and each provider's own rate limit", async () => {
    const env = { ...fakes.env, PROVIDER_TIMEOUT_MS: "150", PDL_RATE_LIMIT_PER_MIN: "10" };
    const [pdl, enrichlayer] = createProviders(loadConfig(env).enrichment, { maxRateWaitMs: 0 });
    if (!pdl || !enrichlayer) throw new Error("expected pdl and enrichlayer");

    expect((await pdl.lookup(query, lookupSignal())).kind).toBe("matched");
    // 10 per minute: the bucket holds one token, and the next comes in 6 s.
    expect(await pdl.lookup(query, lookupSignal())).toMatchObject({
      kind: "transient",
      cause: "rate_limited",
    });
    expect(fakes.pdl.requestCount()).toBe(1);

    fakes.enrichlayer.setDefaultBehaviour({ kind: "hang" });
    expect(await enrichlayer.lookup(query, lookupSignal())).toMatchObject({
      kind: "transient",
      error: "timed out after 150 ms",
    });
  });

  it("paces Gravatar at its hourly quota: 100 an hour without a key, 1,000 with one", async () => {
    // The clock stands still: the bucket's burst (a tenth of a minute's allowance, at least
    // one request) goes at once, then the next waits for its token.
    const now = () => 1_700_000_000_000;
    const pace = async (env: Record<string, string>, burst = 1) => {
      const [gravatar] = createProviders(loadConfig(env).enrichment, { maxRateWaitMs: 0, now });
      if (!gravatar) throw new Error("expected gravatar");
      for (let i = 0; i < burst; i++)
        expect((await gravatar.lookup(query, lookupSignal())).kind).toBe("matched");
      const next = await gravatar.lookup(query, lookupSignal());
      expect(next).toMatchObject({ kind: "transient", cause: "rate_limited" });
      return next.kind === "transient" ? next : null;
    };
    const keyless = await pace({ GRAVATAR_ENABLED: "true", GRAVATAR_BASE_URL: fakes.gravatar.url });
    // 3,600 s / 100 = one request every 36 s.
    expect(keyless?.retryAfterMs).toBeGreaterThanOrEqual(36_000);
    expect(keyless?.retryAfterMs).toBeLessThanOrEqual(36_001);
    expect(keyless?.error).toBe("local rate limit of 100/hour reached");
    // 1,000 an hour: 16.7 a minute, a burst of 2, then one every 3.6 s.
    const keyed = await pace(
      { GRAVATAR_API_KEY: FAKE_GRAVATAR_KEY, GRAVATAR_BASE_URL: fakes.gravatar.url },
      2,
    );
    expect(keyed?.retryAfterMs).toBeGreaterThanOrEqual(3_600);
    expect(keyed?.retryAfterMs).toBeLessThanOrEqual(3_601);
    expect(keyed?.error).toBe("local rate limit of 1000/hour reached");
    expect(fakes.gravatar.requestCount()).toBe(3);
    // A quota Gravatar raised is set per minute.
    const raised = await pace({
      GRAVATAR_ENABLED: "true",
      GRAVATAR_BASE_URL: fakes.gravatar.url,
      GRAVATAR_RATE_LIMIT_PER_MIN: "6",
    });
    expect(raised?.retryAfterMs).toBe(10_000);
  });
});
