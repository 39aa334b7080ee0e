/** What one run of the enrichment benchmark measured (see enrichment.ts). */
import type { CpuUsage } from "./cpu.js";
import type { Completions, EnrichmentCounts } from "./enrichment-db.js";
import type { LatencyStats, PacedResult } from "./paced-load.js";

export interface EnrichmentRun {
  /**
   * idle: worker off; slow: providers answer in 2–5 s; split: the same with the worker in its
   * own `velvet worker` process; instant: providers answer at once.
   */
  name: "idle" | "slow" | "split" | "instant";
  providers: string;
  /** off; in-serve: inside `velvet serve`; separate: a `velvet worker` process beside it. */
  worker: "off" | "in-serve" | "separate";
  ratePerSec: number;
  /** Seconds of submissions before the measured window. */
  warmupSec: number;
  load: PacedResult;
  cpu: CpuUsage;
  /** After the stream (worker on: once every enrichment settled or the wait ran out). */
  counts: EnrichmentCounts;
  /** Seconds from the stream's end until nothing was pending; null if it never happened. */
  drainSec: number | null;
  /** Worker on: enrichments stored during the measured window. */
  completions?: Completions;
  /** Worker on: enriched_at − created_at of the customers submitted in the window. */
  toResult?: LatencyStats & { submitted: number };
}
