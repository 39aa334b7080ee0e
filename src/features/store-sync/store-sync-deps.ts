/** What store sync uses; main.ts and the task hand it over (a narrow view of Deps). */
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import type { Db } from "../../db/connect.js";
import type { JobWakeup } from "../../jobs/job-wakeup.js";
import type { Clock } from "../../lib/clock.js";
import type { OutboundHttp } from "../../lib/outbound/outbound-http.js";

export interface StoreSyncDeps {
  db: Db;
  clock: Clock;
  config: Config;
  log: Logger;
  jobs: JobWakeup;
  /** The process's outbound client (main.ts); without it a sync run makes one of its own. */
  http?: OutboundHttp;
}
