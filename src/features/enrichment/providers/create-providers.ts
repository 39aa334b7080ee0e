/**
 * The network providers that are configured, each wrapped with its timeout, concurrency cap,
 * rate limit and circuit breaker. None is on by default: what turns each on is declared with it
 * (its declaration in `<name>.ts`: its API key, or for Gravatar GRAVATAR_ENABLED=true or a key),
 * and so is how its adapter is built. Pure construction: nothing is sent until the first lookup.
 */
import type { Config } from "../../../config.js";
import { createProviderHttp, type FetchLike } from "./http-call.js";
import type { EnrichmentProvider, ProviderName } from "./provider.js";
import type { AdapterCommon, ProviderDeclaration } from "./provider-declaration.js";
import { PROVIDER_NAMES, PROVIDERS } from "./provider-registry.js";
import {
  type ProviderLog,
  type ResilienceSettings,
  type ResilientProvider,
  withResilience,
} from "./resilient-provider.js";

export interface CreateProvidersDeps {
  log?: ProviderLog;
  /** Time for the breaker, rate limiter and Retry-After dates (default Date.now). */
  now?: () => number;
  fetch?: FetchLike;
  /** The longest a lookup waits for a rate-limit token before it is rescheduled (default 2 s). */
  maxRateWaitMs?: number;
  onCircuitChange?: ResilienceSettings["onCircuitChange"];
  /** Rate-limit slots shared by every process (the provider thread gets them by message). */
  shared?: ResilienceSettings["shared"];
}

/** The providers this configuration turns on, in the order they are asked. */
export function configuredProviderNames(settings: Config["enrichment"]): ProviderName[] {
  return PROVIDER_NAMES.filter((name) => settings[name].enabled);
}

export function createProviders(
  settings: Config["enrichment"],
  deps: CreateProvidersDeps = {},
): ResilientProvider[] {
  // One outbound client for every provider of this thread (lib/outbound/outbound-http.ts).
  const common = { fetch: deps.fetch, now: deps.now, http: createProviderHttp() };
  return configuredProviderNames(settings).map((name) =>
    withResilience(buildAdapter(name, settings, common), {
      timeoutMs: settings.timeoutMs,
      concurrency: settings.concurrency,
      ratePerMinute: settings[name].ratePerMinute,
      breakerFailures: settings.breakerFailures,
      breakerCooldownMs: settings.breakerCooldownMs,
      maxRateWaitMs: deps.maxRateWaitMs,
      now: deps.now,
      log: deps.log,
      onCircuitChange: deps.onCircuitChange,
      shared: deps.shared,
    }),
  );
}

/** A provider's adapter, built as its declaration says from its own settings. */
function buildAdapter(
  name: ProviderName,
  settings: Config["enrichment"],
  common: AdapterCommon,
): EnrichmentProvider {
  const declaration: ProviderDeclaration = PROVIDERS[name];
  return declaration.adapter(settings[name], common);
}
