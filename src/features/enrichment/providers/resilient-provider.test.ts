import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  FAKE_PDL_KEY,
  type FakeProvider,
  providerQuery,
  startFakePdl,
} from "../../../../test/fakes/providers/index.js";
import type { Reservation, SharedSlots } from "../../shared-limits/shared-slots.js";
import { createPdlProvider } from "./pdl.js";
import type { EnrichmentProvider, ProviderResult } from "./provider.js";
import { type ResilienceSettings, withResilience } from "./resilient-provider.js";

const QUERY = providerQuery("jane.doe@example.com");
const MATCH: ProviderResult = {
  kind: "matched",
  provider: "pdl",
  httpStatus: 200,
  profile: {},
  raw: {},
};
const DOWN: ProviderResult = {
  kind: "transient",
  provider: "pdl",
  httpStatus: 503,
  error: "HTTP 503",
  cause: "server_error",
};

const SETTINGS: ResilienceSettings = {
  timeoutMs: 1_000,
  concurrency: 10,
  ratePerMinute: 6_000,
  breakerFailures: 3,
  breakerCooldownMs: 200,
};

/** An in-process adapter whose answers the test scripts, counting calls and calls in flight. */
function scripted(
  answer: (call: number, signal: AbortSignal) => Promise<ProviderResult> | ProviderResult,
) {
  const stats = { calls: 0, inFlight: 0, maxInFlight: 0 };
  const provider: EnrichmentProvider = {
    name: "pdl",
    async lookup(_query, signal) {
      stats.calls += 1;
      stats.inFlight += 1;
      stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
      try {
        return await answer(stats.calls, signal);
      } finally {
        stats.inFlight -= 1;
      }
    },
  };
  return { provider, stats };
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const lookup = (p: EnrichmentProvider, signal = new AbortController().signal) =>
  p.lookup(QUERY, signal);

describe("resilient provider: limits", () => {
  it("caps the calls in flight at the concurrency setting", async () => {
    const { provider, stats } = scripted(async () => {
      await wait(40);
      return MATCH;
    });
    const resilient = withResilience(provider, { ...SETTINGS, concurrency: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => lookup(resilient)));
    expect(results.every((r) => r.kind === "matched")).toBe(true);
    expect(stats.maxInFlight).toBe(2);
    expect(stats.calls).toBe(6);
  });

  it("answers transient with retryAfterMs, without calling, once the rate limit is used up", async () => {
    const { provider, stats } = scripted(() => MATCH);
    const resilient = withResilience(provider, {
      ...SETTINGS,
      ratePerMinute: 60,
      maxRateWaitMs: 0,
    });
    for (let i = 0; i < 6; i++) expect((await lookup(resilient)).kind).toBe("matched");
    const refused = await lookup(resilient);
    expect(refused).toMatchObject({ kind: "transient", httpStatus: null, cause: "rate_limited" });
    if (refused.kind === "transient") {
      expect(refused.retryAfterMs).toBeGreaterThan(800);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(1_000);
      expect(refused.error).toBe("local rate limit of 60/min reached");
    }
    expect(stats.calls).toBe(6);
  });

  it("ends a call that outlives the timeout, even when the adapter ignores its signal", async () => {
    const { provider } = scripted(() => new Promise<ProviderResult>(() => {}));
    const resilient = withResilience(provider, { ...SETTINGS, timeoutMs: 100 });
    const started = Date.now();
    const result = await lookup(resilient);
    expect(result).toEqual({
      kind: "transient",
      provider: "pdl",
      httpStatus: null,
      error: "timed out after 100 ms",
      cause: "timeout",
      durationMs: expect.any(Number),
    });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(resilient.health().consecutiveFailures).toBe(1);
  });

  it("answers aborted when the caller gives up, without counting it against the provider", async () => {
    const { provider } = scripted(
      (_call, signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () =>
            resolve({ ...DOWN, httpStatus: null, error: "aborted", cause: "aborted" }),
          );
        }),
    );
    const resilient = withResilience(provider, SETTINGS);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    expect(await lookup(resilient, controller.signal)).toMatchObject({
      kind: "transient",
      cause: "aborted",
    });
    expect(resilient.health().consecutiveFailures).toBe(0);
  });

  it("turns an adapter that throws into a transient failure", async () => {
    const { provider } = scripted(() => {
      throw new Error("bug in the adapter");
    });
    const resilient = withResilience(provider, SETTINGS);
    expect(await lookup(resilient)).toMatchObject({
      kind: "transient",
      error: "adapter error: bug in the adapter",
    });
    expect(resilient.health().consecutiveFailures).toBe(1);
  });
});

describe("resilient provider: circuit breaker and 429", () => {
  it("opens after consecutive failures, half-opens after the cooldown and closes on success", async () => {
    const { provider, stats } = scripted((call) => (call <= 3 ? DOWN : MATCH));
    const logged: string[] = [];
    const log = {
      warn: (_: object, m: string) => logged.push(m),
      info: (_: object, m: string) => logged.push(m),
    };
    const states: string[] = [];
    const onCircuitChange = (name: string, state: string) => states.push(`${name}:${state}`);
    const resilient = withResilience(provider, { ...SETTINGS, log, onCircuitChange });
    for (let i = 0; i < 3; i++)
      expect(await lookup(resilient)).toMatchObject({ kind: "transient", httpStatus: 503 });
    expect(resilient.health().breaker).toBe("open");

    const refused = await lookup(resilient);
    expect(refused).toMatchObject({ kind: "transient", httpStatus: null, cause: "circuit_open" });
    if (refused.kind === "transient") {
      expect(refused.retryAfterMs).toBeGreaterThan(0);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(200);
    }
    expect(stats.calls).toBe(3);

    await wait(220);
    expect(await lookup(resilient)).toMatchObject({ kind: "matched" });
    expect(resilient.health()).toMatchObject({ breaker: "closed", consecutiveFailures: 0 });
    expect(stats.calls).toBe(4);
    expect(logged).toEqual([
      "provider circuit opened",
      "provider circuit half-open",
      "provider circuit closed",
    ]);
    // What the metrics' circuit gauge is fed with.
    expect(states).toEqual(["pdl:open", "pdl:half_open", "pdl:closed"]);
  });

  it("does not count FullContact's 202 (still searching) as a failure", async () => {
    const pending: ProviderResult = {
      kind: "transient",
      provider: "pdl",
      httpStatus: 202,
      error: "HTTP 202",
      retryAfterMs: 3_000,
      cause: "pending",
    };
    const { provider } = scripted(() => pending);
    const resilient = withResilience(provider, { ...SETTINGS, breakerFailures: 1 });
    for (let i = 0; i < 3; i++) {
      expect(await lookup(resilient)).toEqual({ ...pending, durationMs: expect.any(Number) });
    }
    expect(resilient.health()).toMatchObject({ breaker: "closed", consecutiveFailures: 0 });
  });

  it("lets a single probe through while half-open, and reopens when it fails", async () => {
    const { provider, stats } = scripted(async () => {
      await wait(60);
      return DOWN;
    });
    const resilient = withResilience(provider, { ...SETTINGS, breakerFailures: 1 });
    await lookup(resilient);
    await wait(220);
    const [probe, other] = await Promise.all([lookup(resilient), lookup(resilient)]);
    expect(probe).toMatchObject({ kind: "transient", httpStatus: 503 });
    expect(other).toMatchObject({
      kind: "transient",
      cause: "circuit_open",
      error: expect.stringMatching(/probe/),
    });
    expect(stats.calls).toBe(2);
    expect(resilient.health().breaker).toBe("open");
  });

  it("pauses the provider for a 429's Retry-After without counting it as a failure", async () => {
    const limited: ProviderResult = {
      kind: "transient",
      provider: "pdl",
      httpStatus: 429,
      error: "HTTP 429",
      retryAfterMs: 150,
      cause: "rate_limited",
    };
    const { provider, stats } = scripted((call) => (call === 1 ? limited : MATCH));
    const resilient = withResilience(provider, { ...SETTINGS, breakerFailures: 1 });
    expect(await lookup(resilient)).toMatchObject({ kind: "transient", httpStatus: 429 });
    expect(resilient.health()).toMatchObject({ breaker: "closed", consecutiveFailures: 0 });

    const paused = await lookup(resilient);
    expect(paused).toMatchObject({ kind: "transient", httpStatus: null, cause: "rate_limited" });
    if (paused.kind === "transient") expect(paused.retryAfterMs).toBeLessThanOrEqual(150);
    expect(stats.calls).toBe(1);

    await wait(170);
    expect(await lookup(resilient)).toMatchObject({ kind: "matched" });
    expect(stats.calls).toBe(2);
  });
});

describe("resilient provider around the real adapter", () => {
  let fake: FakeProvider;
  beforeAll(async () => {
    fake = await startFakePdl();
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.reset());

  const resilientPdl = (overrides: Partial<ResilienceSettings> = {}) =>
    withResilience(createPdlProvider({ apiKey: FAKE_PDL_KEY, baseUrl: fake.url }), {
      ...SETTINGS,
      ...overrides,
    });

  it("makes no network call while the circuit is open, and probes once the provider is back", async () => {
    const email = QUERY.email;
    fake.setBehaviour(email, [
      { kind: "error", status: 503 },
      { kind: "error", status: 502 },
      { kind: "match" },
    ]);
    const pdl = resilientPdl({ breakerFailures: 2 });
    expect(await lookup(pdl)).toMatchObject({ httpStatus: 503 });
    expect(await lookup(pdl)).toMatchObject({ httpStatus: 502 });
    expect(await lookup(pdl)).toMatchObject({ cause: "circuit_open" });
    expect(await lookup(pdl)).toMatchObject({ cause: "circuit_open" });
    expect(fake.requestCount()).toBe(2);
    await wait(220);
    expect(await lookup(pdl)).toMatchObject({ kind: "matched" });
    expect(fake.requestCount()).toBe(3);
  });

  it("times a slow provider out at timeoutMs", async () => {
    fake.setBehaviour(QUERY.email, { kind: "match", delay: 2_000 });
    const started = Date.now();
    const result = await lookup(resilientPdl({ timeoutMs: 150 }));
    expect(result).toMatchObject({
      kind: "transient",
      cause: "timeout",
      error: "timed out after 150 ms",
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe("resilient provider: slots shared with other processes", () => {
  const reservations = (answers: Array<Reservation | null>) => {
    const deferred: Array<[string, number]> = [];
    const shared: SharedSlots = {
      reserve: async () => answers.shift() ?? null,
      defer: async (name, delayMs) => {
        deferred.push([name, delayMs]);
      },
    };
    return { shared, deferred };
  };

  it("waits for its shared slot, and is refused with the shared retry-after when it is too far", async () => {
    const { provider, stats } = scripted(() => MATCH);
    const { shared } = reservations([
      { kind: "now", waitMs: 30 },
      { kind: "later", delayMs: 4_000 },
    ]);
    const resilient = withResilience(provider, { ...SETTINGS, ratePerMinute: 60, shared });
    const started = Date.now();
    expect((await lookup(resilient)).kind).toBe("matched");
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(await lookup(resilient)).toMatchObject({ cause: "rate_limited", retryAfterMs: 4_000 });
    expect(stats.calls).toBe(1);
  });

  it("falls back to its own bucket when the shared slots cannot be reached", async () => {
    const { provider, stats } = scripted(() => MATCH);
    const { shared } = reservations([]);
    const resilient = withResilience(provider, {
      ...SETTINGS,
      ratePerMinute: 60,
      maxRateWaitMs: 0,
      shared,
    });
    for (let i = 0; i < 6; i++) expect((await lookup(resilient)).kind).toBe("matched");
    expect(await lookup(resilient)).toMatchObject({ cause: "rate_limited" });
    expect(stats.calls).toBe(6);
  });

  it("pushes the shared next slot for the provider's 429", async () => {
    const { provider } = scripted(() => ({
      kind: "transient",
      provider: "pdl",
      httpStatus: 429,
      error: "HTTP 429",
      cause: "rate_limited",
      retryAfterMs: 9_000,
    }));
    const { shared, deferred } = reservations([{ kind: "now", waitMs: 0 }]);
    const resilient = withResilience(provider, { ...SETTINGS, shared });
    await lookup(resilient);
    expect(deferred).toEqual([["provider:pdl", 9_000]]);
  });
});
