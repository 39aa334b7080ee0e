/**
 * What a provider declares about itself, once, beside its adapter (`<name>.ts`): the label
 * people read, its precedence when two providers disagree, the prefix of its environment
 * variables with their defaults, what turns it on, what it brings, any variable of its own
 * (PDL's minimum likelihood), and how its adapter is built from those settings. The registry
 * (provider-registry.ts) lists the declarations; config.ts reads the variables they name
 * (provider-settings.ts), which is why a provider's file imports nothing above lib/ (the layer
 * rules check it).
 */
import type { z } from "zod";
import type { OutboundHttp } from "../../../lib/outbound/outbound-http.js";
import type { FetchLike } from "./http-call.js";
import type { EnrichmentProvider } from "./provider.js";

/** A provider's settings as config.ts reads them from its variables (provider-settings.ts). */
export interface ProviderSettings {
  /** On: its key is set, or, for a provider a flag turns on, `<PREFIX>_ENABLED` or a key. */
  enabled: boolean;
  apiKey: string | null;
  baseUrl: string;
  /** Requests a minute, paced by a token bucket; a fraction for an hourly quota (Gravatar's). */
  ratePerMinute: number;
  /** What the provider bills per answered lookup, a decimal string in USD. */
  priceUsd: string;
}

/** What every adapter of one thread shares: its outbound client, and a test's fetch and clock. */
export interface AdapterCommon {
  http: OutboundHttp;
  fetch?: FetchLike;
  now?: () => number;
}

export interface ProviderDeclaration<Own extends object = object> {
  /** As the provider spells its own name. */
  label: string;
  /** Most trusted first: identity data, then social, then public records. Unique. */
  precedence: number;
  /** The variables' prefix: `PDL` for PDL_API_KEY and the rest. */
  envPrefix: string;
  /**
   * What turns it on: `key`, its `<PREFIX>_API_KEY`; `flag`, `<PREFIX>_ENABLED=true` or a key
   * (a provider that answers without one).
   */
  turnedOnBy: "key" | "flag";
  /** What it brings, as the operator reads it where no provider is on ("job, company"). */
  brings: string;
  defaults: {
    baseUrl: string;
    /** Requests a minute; a function for a pace that depends on the key (Gravatar's quotas). */
    ratePerMinute: number | ((apiKey: string | undefined) => number);
    /** USD billed per answered lookup (docs/configuration.md gives the sources). */
    priceUsd: string;
  };
  /**
   * Variables of its own beyond the shared ones (each named with its prefix), checked by
   * config.ts's schema, and how its settings read them: `own(env)` is merged into
   * `config.enrichment.<name>`.
   */
  ownVariables?: Record<string, z.ZodType>;
  own?: (env: Record<string, unknown>) => Own;
  /** Its adapter, from its settings; called only for a provider that is on. */
  adapter(settings: ProviderSettings & Own, common: AdapterCommon): EnrichmentProvider;
}

/** A declaration with its own settings' type inferred from `own`. */
export function declareProvider<Own extends object = object>(
  declaration: ProviderDeclaration<Own>,
): ProviderDeclaration<Own> {
  return declaration;
}

/** The settings of a provider whose declaration is `D`: the shared ones and its own. */
export type SettingsOf<D> =
  D extends ProviderDeclaration<infer Own> ? ProviderSettings & Own : never;

/** The setting that turns a provider on, as an operator writes it: `PDL_API_KEY`, `GRAVATAR_ENABLED=true`. */
export function turnOnSetting(
  declaration: Pick<ProviderDeclaration, "envPrefix" | "turnedOnBy">,
): string {
  const p = declaration.envPrefix;
  return declaration.turnedOnBy === "key" ? `${p}_API_KEY` : `${p}_ENABLED=true`;
}

/** A keyed provider's key and address; only called for a provider that is on (a key turns it on). */
export function keyed(own: { apiKey: string | null; baseUrl: string }): {
  apiKey: string;
  baseUrl: string;
} {
  if (own.apiKey === null) throw new Error("provider without an API key was configured");
  return { apiKey: own.apiKey, baseUrl: own.baseUrl };
}
