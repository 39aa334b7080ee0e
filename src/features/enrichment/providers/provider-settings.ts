/**
 * Each registered provider's settings as config.ts reads them from the environment: its key,
 * its address, its pace and its price, under the variable prefix its declaration names
 * (provider-declaration.ts), with the declaration's defaults, and any variable of its own.
 */
import { z } from "zod";
import { boolish, decimalUsd } from "../../../env-values.js";
import type { ProviderName } from "./provider.js";
import type { ProviderDeclaration, ProviderSettings, SettingsOf } from "./provider-declaration.js";
import { PROVIDERS } from "./provider-registry.js";

export type { ProviderSettings } from "./provider-declaration.js";

/** Every provider's settings, by name: the shared ones and each provider's own. */
export type ProviderSettingsByName = { [N in ProviderName]: SettingsOf<(typeof PROVIDERS)[N]> };

/** The variables of one provider, as config.ts's schema checks them. */
function variablesOf(declaration: ProviderDeclaration) {
  const p = declaration.envPrefix;
  return {
    [`${p}_API_KEY`]: z.string().optional(),
    [`${p}_BASE_URL`]: z.string().url().default(declaration.defaults.baseUrl),
    // Unset: the declaration's pace (Gravatar's: its hourly quota for the key's tier).
    [`${p}_RATE_LIMIT_PER_MIN`]: z.coerce.number().int().min(1).optional(),
    [`${p}_PRICE_USD`]: decimalUsd.default(declaration.defaults.priceUsd),
    ...(declaration.turnedOnBy === "flag" ? { [`${p}_ENABLED`]: boolish.default(false) } : {}),
    ...declaration.ownVariables,
  };
}

/** Every registered provider's variables, for config.ts's schema. */
export function providerVariables(): Record<string, z.ZodType> {
  const declared: readonly ProviderDeclaration[] = Object.values(PROVIDERS);
  return Object.assign({}, ...declared.map(variablesOf));
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
    ...declaration.own?.(env),
  };
}

/** Every registered provider's settings. */
export function allProviderSettings(env: Record<string, unknown>): ProviderSettingsByName {
  const declared: Array<[string, ProviderDeclaration]> = Object.entries(PROVIDERS);
  const entries = declared.map(([name, d]) => [name, providerSettings(env, d)]);
  return Object.fromEntries(entries) as ProviderSettingsByName;
}
