/**
 * How each declared provider's adapter is built from its settings (`config.enrichment.<name>`:
 * its key, address and any setting of its own). The record is keyed by ProviderName
 * (provider-registry.ts, where the provider is declared and what turns it on is said), so a
 * declared provider without its adapter here, or an adapter for no declared provider, does not
 * compile. create-providers.ts builds the ones the configuration turns on.
 */
import type { Config } from "../../../config.js";
import type { OutboundHttp } from "../../../lib/outbound/outbound-http.js";
import { createEnrichLayerProvider } from "./enrichlayer.js";
import { createFullContactProvider } from "./fullcontact.js";
import { createGravatarProvider } from "./gravatar.js";
import type { FetchLike } from "./http-call.js";
import { createPdlProvider } from "./pdl.js";
import type { EnrichmentProvider, ProviderName } from "./provider.js";

/** What every adapter of one thread shares: its outbound client, and a test's fetch and clock. */
export interface AdapterCommon {
  http: OutboundHttp;
  fetch?: FetchLike;
  now?: () => number;
}

type BuildAdapter<N extends ProviderName> = (
  settings: Config["enrichment"][N],
  common: AdapterCommon,
) => EnrichmentProvider;

export const PROVIDER_ADAPTERS: { [N in ProviderName]: BuildAdapter<N> } = {
  pdl: (settings, common) =>
    createPdlProvider({ ...common, ...keyed(settings), minLikelihood: settings.minLikelihood }),
  enrichlayer: (settings, common) => createEnrichLayerProvider({ ...common, ...keyed(settings) }),
  fullcontact: (settings, common) =>
    createFullContactProvider({ ...common, ...keyed(settings), confidence: settings.confidence }),
  gravatar: (settings, common) =>
    createGravatarProvider({ ...common, apiKey: settings.apiKey, baseUrl: settings.baseUrl }),
};

/** A provider's adapter, built from its own settings. */
export function buildAdapter<N extends ProviderName>(
  name: N,
  enrichment: Config["enrichment"],
  common: AdapterCommon,
): EnrichmentProvider {
  const build: BuildAdapter<N> = PROVIDER_ADAPTERS[name];
  return build(enrichment[name], common);
}

/** A keyed provider's settings; only called for a provider that is on (a key turns it on). */
function keyed(own: { apiKey: string | null; baseUrl: string }): {
  apiKey: string;
  baseUrl: string;
} {
  if (own.apiKey === null) throw new Error("provider without an API key was configured");
  return { apiKey: own.apiKey, baseUrl: own.baseUrl };
}
