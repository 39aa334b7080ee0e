/**
 * The providers as production runs them: on the provider thread, against the wire-format fakes.
 * What comes back must be what the adapters return on the main thread, an abort must reach the
 * HTTP call in the thread, the wrapper's log lines must reach the main logger, and closing must
 * end whatever is still in flight.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeProviders,
  providerQuery,
  startFakeProviders,
} from "../../../../test/fakes/providers/index.js";
import { loadConfig } from "../../../config.js";
import { createProviders } from "./create-providers.js";
import { PROVIDER_NAMES } from "./provider-registry.js";
import { createThreadedProviders, type ThreadedProviders } from "./provider-thread.js";

const query = providerQuery("jane.doe@example.com");

function recordingLog() {
  const lines: Array<{ level: string; details: object; message: string }> = [];
  const at = (level: string) => (details: object, message: string) => {
    lines.push({ level, details, message });
  };
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}

describe("providers on their own thread", () => {
  let fakes: FakeProviders;
  let threaded: ThreadedProviders | null = null;
  beforeAll(async () => {
    fakes = await startFakeProviders();
  });
  afterAll(() => fakes.close());
  beforeEach(() => {
    for (const fake of fakes.all()) fake.reset();
  });
  afterEach(async () => {
    await threaded?.close();
    threaded = null;
  });

  function start(env: Record<string, string>, log = recordingLog()) {
    threaded = createThreadedProviders(loadConfig(env).enrichment, log);
    return threaded;
  }

  it("has no providers, and starts no thread, when none is configured", async () => {
    const { providers } = start({});
    expect(providers).toEqual([]);
  });

  it("answers each lookup with what the adapter returns on the main thread", async () => {
    const { providers } = start(fakes.env);
    // Every declared provider, the fakes configuring them all (in precedence order).
    expect(providers.map((p) => p.name)).toEqual(PROVIDER_NAMES);
    const signal = AbortSignal.timeout(5_000);
    const viaThread = await Promise.all(providers.map((p) => p.lookup(query, signal)));
    const direct = createProviders(loadConfig(fakes.env).enrichment);
    const onMain = await Promise.all(direct.map((p) => p.lookup(query, signal)));
    expect(viaThread.map((r) => r.kind)).toEqual(PROVIDER_NAMES.map(() => "matched"));
    // The raw body crosses as JSON text; everything else is the adapter's value as it was
    // (each call's duration, measured on either side, is a number).
    const parsed = viaThread.map(({ rawJson, durationMs, ...rest }) => {
      expect(durationMs).toEqual(expect.any(Number));
      return {
        ...rest,
        raw: rawJson === undefined ? undefined : JSON.parse(new TextDecoder().decode(rawJson)),
      };
    });
    expect(parsed).toEqual(onMain.map(({ durationMs: _, ...rest }) => rest));
    expect(fakes.all().map((f) => f.requestCount())).toEqual(PROVIDER_NAMES.map(() => 2));
  });

  it("asks several providers in one go and answers in the order asked", async () => {
    const { providers, lookupAll } = start(fakes.env);
    fakes.pdl.setDefaultBehaviour({ kind: "match", delay: 60 });
    fakes.gravatar.setDefaultBehaviour({ kind: "not_found" });
    const [pdl, , , gravatar] = providers;
    if (pdl === undefined || gravatar === undefined) throw new Error("missing providers");
    const results = await lookupAll([gravatar, pdl], query, AbortSignal.timeout(5_000));
    expect(results.map((r) => [r.provider, r.kind])).toEqual([
      ["gravatar", "not_found"],
      ["pdl", "matched"],
    ]);
    expect(await lookupAll([], query, AbortSignal.timeout(5_000))).toEqual([]);
  });

  it("keeps many lookups apart: each answer goes to its own caller", async () => {
    const { providers } = start({ ...fakes.env, PDL_RATE_LIMIT_PER_MIN: "6000" });
    const pdl = providers[0];
    if (pdl === undefined) throw new Error("no pdl");
    fakes.pdl.setDefaultBehaviour({ kind: "match", delay: { minMs: 0, maxMs: 30 } });
    fakes.pdl.setBehaviour("nobody@example.com", { kind: "not_found", delay: 15 });
    const emails = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 0 ? "nobody@example.com" : `person${i}@example.com`,
    );
    // One signal per lookup, as in production (each enrichment attempt has its own): sixty
    // lookups on one shared signal would add sixty abort listeners to it at once.
    const results = await Promise.all(
      emails.map((e) => pdl.lookup(providerQuery(e), AbortSignal.timeout(5_000))),
    );
    results.forEach((result, i) => {
      if (emails[i] === "nobody@example.com") expect(result.kind).toBe("not_found");
      else {
        // The fake's person id is derived from the e-mail asked about.
        const id = `pdl-${Buffer.from(emails[i] ?? "")
          .toString("hex")
          .slice(0, 16)}`;
        expect(result.kind).toBe("matched");
        expect(JSON.parse(new TextDecoder().decode(result.rawJson))).toMatchObject({
          data: { id },
        });
      }
    });
  });

  it("passes the caller's abort on to the HTTP call in the thread", async () => {
    const { providers } = start(fakes.env);
    fakes.enrichlayer.setDefaultBehaviour({ kind: "hang" });
    const controller = new AbortController();
    const started = performance.now();
    const lookup = providers[1]?.lookup(query, controller.signal);
    setTimeout(() => controller.abort(new Error("lease ended")), 200);
    const result = await lookup;
    expect(result).toMatchObject({ kind: "transient", provider: "enrichlayer", cause: "aborted" });
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("answers an already aborted lookup at once, without calling the provider", async () => {
    const { providers } = start(fakes.env);
    const controller = new AbortController();
    controller.abort();
    const result = await providers[0]?.lookup(query, controller.signal);
    expect(result).toMatchObject({ kind: "transient", cause: "aborted" });
    expect(fakes.pdl.requestCount()).toBe(0);
  });

  it("keeps the timeout and circuit breaker in the thread, and logs through the main logger", async () => {
    const log = recordingLog();
    // A raised Gravatar pace: without a key its quota allows one call every 36 s, and this test
    // is about the timeout and the breaker, not the rate limit.
    const env = {
      ...fakes.env,
      PROVIDER_TIMEOUT_MS: "300",
      CIRCUIT_BREAKER_FAILURES: "2",
      GRAVATAR_RATE_LIMIT_PER_MIN: "600",
    };
    const { providers } = start(env, log);
    fakes.gravatar.setDefaultBehaviour({ kind: "hang" });
    const gravatar = providers[3];
    if (gravatar === undefined) throw new Error("no gravatar");
    const signal = AbortSignal.timeout(5_000);
    const first = await gravatar.lookup(query, signal);
    expect(first).toMatchObject({ kind: "transient", cause: "timeout" });
    await gravatar.lookup(query, signal);
    const refused = await gravatar.lookup(query, signal);
    expect(refused).toMatchObject({ kind: "transient", cause: "circuit_open" });
    expect(fakes.gravatar.requestCount()).toBe(2);
    expect(log.lines).toContainEqual({
      level: "warn",
      details: expect.objectContaining({ provider: "gravatar", to: "open" }),
      message: "provider circuit opened",
    });
  });

  it("ends lookups still in flight when closed, and answers later ones as aborted", async () => {
    const current = start(fakes.env);
    fakes.fullcontact.setDefaultBehaviour({ kind: "hang" });
    const fullcontact = current.providers[2];
    if (fullcontact === undefined) throw new Error("no fullcontact");
    const signal = AbortSignal.timeout(5_000);
    const inFlight = fullcontact.lookup(query, signal);
    await waitForRequest(() => fakes.fullcontact.requestCount() > 0);
    await current.close();
    expect(await inFlight).toMatchObject({ kind: "transient", cause: "aborted" });
    expect(await fullcontact.lookup(query, signal)).toMatchObject({ cause: "aborted" });
  });
});

async function waitForRequest(arrived: () => boolean): Promise<void> {
  const deadline = Date.now() + 5_000;
  while (!arrived()) {
    if (Date.now() > deadline) throw new Error("the request never reached the fake");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
