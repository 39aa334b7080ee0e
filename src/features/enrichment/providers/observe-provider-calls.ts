/**
 * Provider metrics, counted where the answers arrive: on the main thread, from the values the
 * provider thread sends back (each carries its call's duration), so the thread needs no
 * registry of its own and injected providers (tests) are counted the same way.
 */
import type { Metrics } from "../../metrics/metrics.js";
import type { LookupAll } from "./lookup-all.js";

export function observeProviderCalls(lookupAll: LookupAll, metrics: Metrics): LookupAll {
  return async (providers, query, signal) => {
    const results = await lookupAll(providers, query, signal);
    for (const r of results) {
      const reason = "cause" in r && r.cause !== undefined ? r.cause : r.kind;
      const seconds = r.durationMs === undefined ? null : r.durationMs / 1000;
      metrics.providerCall(r.provider, r.kind, reason, seconds);
    }
    return results;
  };
}
