/**
 * The enrichment benchmark's knobs and the Velvet settings it runs with. The settings are what
 * an operator must set for this throughput: the defaults (50 jobs in flight, 50 calls per
 * provider, 16 to 600 calls per minute) are sized for real providers' plans, not for 100 new
 * customers a second.
 */
import {
  PROVIDER_NAMES,
  PROVIDERS,
} from "../src/features/enrichment/providers/provider-registry.js";

/** The enrichment phase's targets (docs/performance.md, Enrichment). */
export const MIN_ENRICHMENTS_PER_SEC = 100;
export const MAX_P99_RATIO = 2;
export const MAX_MEDIAN_TO_RESULT_MS = 100;

/** The slow fakes' answer time, uniformly random (ms). */
export const SLOW_DELAY = "2000-5000";
/** Submissions start this long before the window, so enrichments are in steady state in it. */
export const STEADY_AFTER_SEC = 6;
/** How long to wait after the stream for the last enrichments. */
export const DRAIN_TIMEOUT_MS = 120_000;

const PROVIDER_RATE = "1000000";

export const VELVET_SETTINGS: Record<string, string> = {
  WORKER_CONCURRENCY: "800",
  PROVIDER_CONCURRENCY: "800",
  PROVIDER_TIMEOUT_MS: "10000",
  // Every registered provider, unthrottled.
  ...Object.fromEntries(
    PROVIDER_NAMES.map((name) => [
      `${PROVIDERS[name].envPrefix}_RATE_LIMIT_PER_MIN`,
      PROVIDER_RATE,
    ]),
  ),
};

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${name} must be a number > 0, got "${raw}"`);
  return value;
}

/** Submissions per second while the providers take 2–5 s (and for the idle comparison). */
export function loadedRate(): number {
  return envNumber("BENCH_ENRICHMENT_RATE", 130);
}

/** Submissions per second for the instant-provider latency run. */
export function instantRate(): number {
  return envNumber("BENCH_ENRICHMENT_INSTANT_RATE", 50);
}
