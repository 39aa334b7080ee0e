/**
 * The two promises, checked against the wrapper with the default configuration and a
 * simulated clock: during an outage a new customer's enrichment fails within a minute, and once
 * the provider is back a retried enrichment completes within a minute. The worker is modelled
 * as the enrichment flow runs it: `maxAttempts` attempts, each next one after the result's
 * retryAfterMs or else an exponential backoff (1 s, 2 s, …).
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config.js";
import type { EnrichmentProvider, ProviderResult } from "./provider.js";
import { type ResilientProvider, withResilience } from "./resilient-provider.js";

const config = loadConfig({});
const MINUTE = 60_000;
const signal = new AbortController().signal;
const query = {
  email: "a@example.com",
  emailNormalized: "a@example.com",
  firstName: "",
  lastName: "",
  phone: null,
};

type Mode = "up" | "refusing" | "hanging";

/** A provider whose health the test switches, spending simulated time like the real thing. */
function simulatedProvider(clock: { t: number }) {
  const state = { mode: "up" as Mode, calls: 0 };
  const provider: EnrichmentProvider = {
    name: "enrichlayer",
    async lookup(): Promise<ProviderResult> {
      state.calls += 1;
      if (state.mode === "hanging") {
        clock.t += config.enrichment.timeoutMs; // the call runs into the timeout
        return {
          kind: "transient",
          provider: "enrichlayer",
          httpStatus: null,
          error: "timed out",
          cause: "timeout",
        };
      }
      clock.t += 50;
      if (state.mode === "refusing") {
        return {
          kind: "transient",
          provider: "enrichlayer",
          httpStatus: null,
          error: "ECONNREFUSED",
          cause: "network",
        };
      }
      return { kind: "not_found", provider: "enrichlayer", httpStatus: 404, raw: null };
    },
  };
  return { provider, state };
}

/** One enrichment job as the worker runs it; returns how it ended and how long it took. */
async function enrich(
  p: ResilientProvider,
  clock: { t: number },
): Promise<{ outcome: string; ms: number }> {
  const started = clock.t;
  for (let attempt = 1; attempt <= config.enrichment.maxAttempts; attempt++) {
    const result = await p.lookup(query, signal);
    if (result.kind !== "transient") return { outcome: "enriched", ms: clock.t - started };
    if (attempt < config.enrichment.maxAttempts)
      clock.t += result.retryAfterMs ?? 1_000 * 2 ** (attempt - 1);
  }
  return { outcome: "failed", ms: clock.t - started };
}

function setup() {
  const clock = { t: 0 };
  const { provider, state } = simulatedProvider(clock);
  const e = config.enrichment;
  const resilient = withResilience(provider, {
    timeoutMs: e.timeoutMs,
    concurrency: e.concurrency,
    ratePerMinute: e.enrichlayer.ratePerMinute,
    breakerFailures: e.breakerFailures,
    breakerCooldownMs: e.breakerCooldownMs,
    now: () => clock.t,
  });
  return { clock, state, resilient };
}

describe("the outage promises, with the default settings", () => {
  for (const mode of ["refusing", "hanging"] as const) {
    it(`a new customer's enrichment fails within a minute while the provider is ${mode}`, async () => {
      const { clock, state, resilient } = setup();
      state.mode = mode;
      // Customers keep arriving, each at a different moment of the breaker's cycle: the first
      // meet a closed circuit, later ones an open or half-open one.
      const arrivals = [
        0, 700, 1_300, 2_000, 3_100, 4_700, 5_000, 9_000, 14_900, 15_000, 15_100, 26_000,
      ];
      for (const gap of arrivals) {
        clock.t += gap;
        const run = await enrich(resilient, clock);
        expect(run.outcome).toBe("failed");
        expect(run.ms).toBeLessThan(MINUTE);
      }
      expect(resilient.health().breaker).not.toBe("closed");
    });

    it(`a retried enrichment completes within a minute once a ${mode} provider is back`, async () => {
      const { clock, state, resilient } = setup();
      state.mode = mode;
      for (let i = 0; i < 6; i++) await enrich(resilient, clock);
      // Worst case: a probe has just failed, so the circuit is freshly open for a full cooldown.
      clock.t += config.enrichment.breakerCooldownMs;
      await resilient.lookup(query, signal);
      expect(resilient.health().breaker).toBe("open");

      state.mode = "up";
      const run = await enrich(resilient, clock);
      expect(run.outcome).toBe("enriched");
      expect(run.ms).toBeLessThan(MINUTE);
      expect(resilient.health().breaker).toBe("closed");
    });
  }
});
