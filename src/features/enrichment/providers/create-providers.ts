/**
 * The network providers that are configured, each wrapped with its timeout, concurrency cap,
 * rate limit and circuit breaker. None is on by default: PDL, EnrichLayer and FullContact need
 * their API key, Gravatar needs GRAVATAR_ENABLED=true or a key. Pure construction: nothing is
 * sent until the first lookup.
 */
import type { Config, ProviderSettings } from "../../../config.js";
import { createEnrichLayerProvider } from "./enrichlayer.js";
import { createFullContactProvider } from "./fullcontact.js";
import { createGravatarProvider } from "./gravatar.js";
import type { FetchLike } from "./http-call.js";
import { createPdlProvider } from "./pdl.js";
import type { EnrichmentProvider } from "./provider.js";
import { type ProviderLog, type ResilientProvider, withResilience } from "./resilient-provider.js";

export interface CreateProvidersDeps {
  log?: ProviderLog;
  /** Time for the breaker, rate limiter and Retry-After dates (default Date.now). */
  now?: () => number;
  fetch?: FetchLike;
  /** The longest a lookup waits for a rate-limit token before it is rescheduled (default 2 s). */
  maxRateWaitMs?: number;
}

export function createProviders(
  settings: Config["enrichment"],
  deps: CreateProvidersDeps = {},
): ResilientProvider[] {
  const adapters: Array<[EnrichmentProvider, ProviderSettings]> = [];
  const common = { fetch: deps.fetch, now: deps.now };
  const { pdl, enrichlayer, fullcontact, gravatar } = settings;
  if (pdl.apiKey !== null) {
    adapters.push([
      createPdlProvider({ ...common, apiKey: pdl.apiKey, baseUrl: pdl.baseUrl }),
      pdl,
    ]);
  }
  if (enrichlayer.apiKey !== null) {
    const apiKey = enrichlayer.apiKey;
    adapters.push([
      createEnrichLayerProvider({ ...common, apiKey, baseUrl: enrichlayer.baseUrl }),
      enrichlayer,
    ]);
  }
  if (fullcontact.apiKey !== null) {
    const apiKey = fullcontact.apiKey;
    adapters.push([
      createFullContactProvider({ ...common, apiKey, baseUrl: fullcontact.baseUrl }),
      fullcontact,
    ]);
  }
  if (gravatar.enabled) {
    const apiKey = gravatar.apiKey;
    adapters.push([
      createGravatarProvider({ ...common, apiKey, baseUrl: gravatar.baseUrl }),
      gravatar,
    ]);
  }
  return adapters.map(([adapter, own]) =>
    withResilience(adapter, {
      timeoutMs: settings.timeoutMs,
      concurrency: settings.concurrency,
      ratePerMinute: own.ratePerMinute,
      breakerFailures: settings.breakerFailures,
      breakerCooldownMs: settings.breakerCooldownMs,
      maxRateWaitMs: deps.maxRateWaitMs,
      now: deps.now,
      log: deps.log,
    }),
  );
}
