/**
 * Asking several providers about one person, as an enrichment attempt does. On the provider
 * thread this is one message for all of them (provider-thread.ts); `lookupEach` is the plain
 * version for providers that run where they are called (tests inject such providers).
 */
import { lookupSafely } from "./call-with-deadline.js";
import type { EnrichmentProvider, ProviderQuery, ProviderResult } from "./provider.js";

/** Every answer is a value, in the order the providers were given. */
export type LookupAll = (
  providers: EnrichmentProvider[],
  query: ProviderQuery,
  signal: AbortSignal,
) => Promise<ProviderResult[]>;

/** A bug in one provider must not fail the others' answers: a throw becomes a transient result. */
export const lookupEach: LookupAll = (providers, query, signal) =>
  Promise.all(providers.map((provider) => lookupSafely(provider, query, signal)));
