/**
 * Everything the process hands its routes, commands and background tasks: the shared `Deps`
 * plus what each feature declared it needs beyond them. Built by `buildDeps` in main.ts; only
 * the transports (http/, cli/), tasks.ts and main.ts see the whole of it, never a feature.
 */
import type { Deps } from "./deps.js";
import type { AlertsDeps } from "./features/alerts/alert-deps.js";
import type { DestinationsDeps } from "./features/destinations/destination-driver.js";
import type { EnrichmentDeps } from "./features/enrichment/enrichment-deps.js";
import type { MetricsDeps } from "./features/metrics/metrics.js";
import type { PrivacyDeps } from "./features/privacy/privacy-registry.js";
import type { OutboundHttp } from "./lib/outbound/outbound-http.js";

export interface AppDeps
  extends Deps,
    AlertsDeps,
    EnrichmentDeps,
    MetricsDeps,
    PrivacyDeps,
    DestinationsDeps {
  /** The process's one outbound HTTP client (guarded, timed out, capped), closed by closeDeps. */
  http: OutboundHttp;
  /** Stops the provider thread (closeDeps calls it). */
  closeProviders(): Promise<void>;
}
