/**
 * The network providers that are configured, each wrapped with its timeout, concurrency cap,
 * rate limit and circuit breaker. None is on by default: PDL, EnrichLayer and FullContact need
 * their API key, Gravatar needs GRAVATAR_ENABLED=true or a key. Pure construction: nothing is
 * sent until the first lookup.
 */
import type { Config, ProviderSettings } from "../../../config.js";
import { PROVIDER_NAMES } from "../../../provider-registry.js";
import { createEnrichLayerProvider } from "./enrichlayer.js";
import { createFullContactProvider } from "./fullcontact.js";
import { createGravatarProvider } from "./gravatar.js";
import { createProviderHttp, type FetchLike } from "./http-call.js";
import { createPdlProvider } from "./pdl.js";
import type { EnrichmentProvider, ProviderName } from "./provider.js";
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
  const { pdl, enrichlayer, fullcontact, gravatar } = settings;
  const on: Record<ProviderName, boolean> = {
    pdl: pdl.apiKey !== null,
    enrichlayer: enrichlayer.apiKey !== null,
    fullcontact: fullcontact.apiKey !== null,
    gravatar: gravatar.enabled,
  };
  return PROVIDER_NAMES.filter((name) => on[name]);
}

export function createProviders(
  settings: Config["enrichment"],
  deps: CreateProvidersDeps = {},
): ResilientProvider[] {
  // One outbound client for every provider of this thread (lib/outbound/outbound-http.ts).
  const common = { fetch: deps.fetch, now: deps.now, http: createProviderHttp() };
  const adapter = (name: ProviderName): EnrichmentProvider => {
    switch (name) {
      case "pdl":
        return createPdlProvider({
          ...common,
          ...keyed(settings.pdl),
          minLikelihood: settings.pdl.minLikelihood,
        });
      case "enrichlayer":
        return createEnrichLayerProvider({ ...common, ...keyed(settings.enrichlayer) });
      case "fullcontact":
        return createFullContactProvider({
          ...common,
          ...keyed(settings.fullcontact),
          confidence: settings.fullcontact.confidence,
        });
      case "gravatar":
        return createGravatarProvider({ ...common, ...settings.gravatar });
    }
  };
  return configuredProviderNames(settings).map((name) =>
    withResilience(adapter(name), {
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

/** A keyed provider's settings; only called for a provider that is configured (it has a key). */
function keyed(own: ProviderSettings): { apiKey: string; baseUrl: string } {
  if (own.apiKey === null) throw new Error("provider without an API key was configured");
  return { apiKey: own.apiKey, baseUrl: own.baseUrl };
}
