/**
 * Which lookups a provider bills, as each one bills. Each bills an answered lookup (HTTP
 * 200) and nothing else:
 * - PDL: one credit per 200; a 404 (no match) and every error are free;
 * - EnrichLayer: credits when the API returns a 2xx; 404 and 5xx are free. A 200 with no
 *   profile is billed too, since EnrichLayer says a null result may be;
 * - FullContact: a matched person (200); 202 (still searching) and 404 are not;
 * - Gravatar: free, but counted like the others (GRAVATAR_PRICE_USD defaults to 0).
 * A 200 whose body we could not read (`malformed_response`) was still billed by the provider.
 */
import type { BilledLookups } from "../../billing/provider-spend.js";
import type { ProviderName, ProviderResult } from "./provider.js";

export function isBilled(result: ProviderResult): boolean {
  return result.httpStatus === 200;
}

/** The attempt's billed lookups per provider, each at its configured price. */
export function billedLookups(
  results: ProviderResult[],
  priceOf: (provider: ProviderName) => string,
): BilledLookups[] {
  return results
    .filter(isBilled)
    .map((r) => ({ provider: r.provider, lookups: 1, unitPriceUsd: priceOf(r.provider) }));
}
