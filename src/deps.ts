/**
 * The services every feature may use, built once in `main.ts` and replaced piecewise in tests:
 * configuration, the database, the clock, the logger and the job doorbell. It names no feature:
 * a feature that needs more declares it next to itself (`AlertsDeps`, `EnrichmentDeps`,
 * `MetricsDeps`) and `app-deps.ts` composes them all for the transports and `main.ts`.
 * Nothing in the codebase imports a singleton instead.
 */
import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { Db } from "./db/connect.js";
import type { JobWakeup } from "./jobs/job-wakeup.js";
import type { Clock } from "./lib/clock.js";

export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
  /** Rings the in-process worker after a commit that enqueued jobs. */
  jobs: JobWakeup;
}
