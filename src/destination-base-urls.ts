/**
 * Where each destination kind that calls a platform finds it: the variable naming the address
 * and the platform's own address as its default. config.ts reads these variables (a bad URL
 * stops the start, naming the variable) into `config.destinations.baseUrls`, keyed by kind, and
 * tests point them at fakes. The kinds themselves are registered in
 * features/destinations/destination-kinds.ts, which checks that every key here is a kind and
 * builds each driver with its address.
 *
 * It sits beside config.ts, below the features, because config.ts reads the variables it names
 * (as provider-registry.ts does for the enrichment providers).
 */
import { z } from "zod";

export interface BaseUrlDeclaration {
  /** The environment variable: `<KIND>_BASE_URL`. */
  env: string;
  /** The platform's address, used when the variable is unset. */
  default: string;
}

export const DESTINATION_BASE_URLS = {
  klaviyo: { env: "KLAVIYO_BASE_URL", default: "https://a.klaviyo.com" },
} as const satisfies Record<string, BaseUrlDeclaration>;

/** The kinds that call a platform at an address of their own. */
export type KindWithBaseUrl = keyof typeof DESTINATION_BASE_URLS;

/** Every declared address variable, for config.ts's schema. */
export function destinationBaseUrlVariables(): Record<string, z.ZodType> {
  const declared: readonly BaseUrlDeclaration[] = Object.values(DESTINATION_BASE_URLS);
  return Object.fromEntries(declared.map((d) => [d.env, z.string().url().default(d.default)]));
}

/** Each kind's address from the checked environment, without a trailing slash. */
export function destinationBaseUrls(env: Record<string, unknown>): Record<KindWithBaseUrl, string> {
  const entries = Object.entries(DESTINATION_BASE_URLS).map(([kind, d]) => [
    kind,
    (env[d.env] as string).replace(/\/+$/, ""),
  ]);
  return Object.fromEntries(entries) as Record<KindWithBaseUrl, string>;
}
