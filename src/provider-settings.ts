/**
 * An enrichment provider's settings as config.ts reads them from the environment: its key, its
 * address, its pace and its price, under the variable prefix its declaration names
 * (provider-registry.ts), with the declaration's defaults.
 */
import { z } from "zod";
import { boolish, decimalUsd } from "./env-values.js";
import { PROVIDERS, type ProviderDeclaration, type ProviderName } from "./provider-registry.js";

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

/** The four variables of one provider, as config.ts's schema checks them. */
function variablesOf(declaration: ProviderDeclaration) {
  const p = declaration.envPrefix;
  return {
    [`${p}_API_KEY`]: z.string().optional(),
    [`${p}_BASE_URL`]: z.string().url().default(declaration.defaults.baseUrl),
    // Unset: the declaration's pace (Gravatar's: its hourly quota for the key's tier).
    [`${p}_RATE_LIMIT_PER_MIN`]: z.coerce.number().int().min(1).optional(),
    [`${p}_PRICE_USD`]: decimalUsd.default(declaration.defaults.priceUsd),
    ...(declaration.turnedOnBy === "flag" ? { [`${p}_ENABLED`]: boolish.default(false) } : {}),
  };
}

/** Every declared provider's variables, for config.ts's schema. */
export function providerVariables(): Record<string, z.ZodType> {
  return Object.assign({}, ...Object.values(PROVIDERS).map(variablesOf));
}

/** One provider's settings from the checked environment (its variables passed the schema). */
export function providerSettings(
  env: Record<string, unknown>,
  declaration: ProviderDeclaration,
): ProviderSettings {
  const p = declaration.envPrefix;
  const apiKey = env[`${p}_API_KEY`] as string | undefined;
  const configured = env[`${p}_RATE_LIMIT_PER_MIN`] as number | undefined;
  const pace = declaration.defaults.ratePerMinute;
  const key = apiKey?.trim() ?? "";
  const flag = declaration.turnedOnBy === "flag" && env[`${p}_ENABLED`] === true;
  return {
    enabled: key !== "" || flag,
    apiKey: key === "" ? null : key,
    baseUrl: (env[`${p}_BASE_URL`] as string).replace(/\/+$/, ""),
    ratePerMinute: configured ?? (typeof pace === "number" ? pace : pace(apiKey)),
    priceUsd: env[`${p}_PRICE_USD`] as string,
  };
}

/** Every declared provider's settings. */
export function allProviderSettings(
  env: Record<string, unknown>,
): Record<ProviderName, ProviderSettings> {
  const entries = Object.entries(PROVIDERS).map(([name, d]) => [name, providerSettings(env, d)]);
  return Object.fromEntries(entries) as Record<ProviderName, ProviderSettings>;
}
