/**
 * The four provider fakes (test/fakes/providers) in a process of their own, so that answering
 * hundreds of delayed lookups a second does not compete with the load generator's event loop.
 * Every lookup matches; BENCH_FAKE_DELAY_MS is "0" (instant) or "min-max" (uniformly random,
 * e.g. "2000-5000"). Prints one JSON line on stdout, the environment that points Velvet at the
 * fakes, once they listen. Run alone:
 *   BENCH_FAKE_DELAY_MS=2000-5000 node --import tsx bench/fake-providers-server.ts
 */

import { PROVIDER_NAMES } from "../src/features/enrichment/providers/provider-registry.js";
import type { Behaviour, Delay } from "../test/fakes/providers/index.js";
import { startFakeProviders } from "../test/fakes/providers/index.js";
import { runUntilParentGoes } from "./fake-process.js";

function parseDelay(raw: string): Delay | undefined {
  const range = /^(\d+)-(\d+)$/.exec(raw);
  if (range) {
    const minMs = Number(range[1]);
    const maxMs = Number(range[2]);
    if (maxMs < minMs) throw new Error(`BENCH_FAKE_DELAY_MS: ${raw} has max < min`);
    return { minMs, maxMs };
  }
  if (/^\d+$/.test(raw)) return Number(raw) === 0 ? undefined : Number(raw);
  throw new Error(`BENCH_FAKE_DELAY_MS must be "ms" or "min-max", got "${raw}"`);
}

const delay = parseDelay(process.env.BENCH_FAKE_DELAY_MS ?? "0");
const behaviour: Behaviour = delay === undefined ? { kind: "match" } : { kind: "match", delay };
// A short request log: the benchmark sends hundreds of thousands of lookups, as an install
// whose Gravatar quota was raised would (bench/enrichment-settings.ts paces Velvet alike).
const raised = { keyless: 100_000_000, keyed: 100_000_000 };
const fakes = await startFakeProviders({
  defaultBehaviour: behaviour,
  maxLog: 100,
  gravatarQuotaPerHour: raised,
});
process.stdout.write(`${JSON.stringify(fakes.env)}\n`);

runUntilParentGoes({
  report: () => {
    const answered = PROVIDER_NAMES.map((name) => `${name} ${fakes[name].requestCount()}`);
    return `fake providers: requests received: ${answered.join(", ")}`;
  },
  close: () => fakes.close(),
});
