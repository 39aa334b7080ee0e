/**
 * Asking several providers about one person, as an enrichment attempt does. On the provider
 * thread this is one message for all of them (provider-thread.ts); `lookupEach` is the plain
 * version for providers that run where they are called (tests inject such providers).
 */
import type { EnrichmentProvider, ProviderQuery, ProviderResult } from "./provider.js";

/** Every answer is a value, in the order the providers were given. */
export type LookupAll = (
  providers: EnrichmentProvider[],
  query: ProviderQuery,
  signal: AbortSignal,
) => Promise<ProviderResult[]>;

export const lookupEach: LookupAll = (providers, query, signal) =>
  Promise.all(providers.map((provider) => lookupSafely(provider, query, signal)));

/** An adapter must not throw, but a bug in one must not fail the others' answers either. */
async function lookupSafely(
  provider: EnrichmentProvider,
  query: ProviderQuery,
  signal: AbortSignal,
): Promise<ProviderResult> {
  try {
    return await provider.lookup(query, signal);
  } catch (error) {
    return {
      kind: "transient",
      provider: provider.name,
      httpStatus: null,
      error: `unexpected: ${String(error)}`,
    };
  }
}
