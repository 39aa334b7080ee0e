/**
 * What use cases and routes receive: built once in `main.ts`, replaced piecewise in tests.
 * Nothing in the codebase imports a singleton instead.
 */
import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { Db } from "./db/connect.js";
import type { AlertDelivery } from "./features/alerts/alert-deps.js";
import type { LookupAll } from "./features/enrichment/providers/lookup-all.js";
import type { EnrichmentProvider } from "./features/enrichment/providers/provider.js";
import type { Metrics } from "./features/metrics/metrics.js";
import type { JobWakeup } from "./jobs/job-wakeup.js";
import type { Clock } from "./lib/clock.js";

export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Rings the in-process worker after a commit that enqueued jobs. */
  jobs: JobWakeup;
  /**
   * The configured enrichment providers, each behind its limits and circuit breaker, running on
   * the provider thread (providers/provider-thread.ts).
   */
  providers: EnrichmentProvider[];
  /** Asks several of `providers` about one person (on the thread: one message for all). */
  lookupAll: LookupAll;
  /** Stops the provider thread (closeDeps calls it). */
  closeProviders(): Promise<void>;
  /** Chat (SSRF-guarded, paced) and SMTP senders for VIP alerts. */
  alerts: AlertDelivery;
  /** Prometheus metrics when METRICS_PORT is set in a long-running process; else no-ops. */
  metrics: Metrics;
}
