/**
 * What crosses between the event loop that serves orders and the provider thread
 * (provider-thread.ts). Every message is structured-clone data: queries and results are plain
 * objects, and a result is a value even when the lookup failed.
 */
import type { Config } from "../../../config.js";
import type { LoopDelaySnapshot } from "../../metrics/event-loop-delay.js";
import type { SlotAsk, SlotGrant } from "../../shared-limits/shared-limits-table.js";
import type { BreakerState } from "./circuit-breaker.js";
import type { ProviderName, ProviderQuery, ProviderResult } from "./provider.js";

/** The thread's `workerData`: the providers' settings, read from the environment once. */
export interface ProviderThreadData {
  enrichment: Config["enrichment"];
  /** The main thread answers `take-slots` from the shared table; false: per-process rates. */
  sharedSlots: boolean;
  /** Send the thread's event-loop delay every THREAD_REPORT_MS (metrics are on). */
  reportLoopDelay: boolean;
}

export type ToThread =
  /** Ask these providers, in parallel, about one person: one message per enrichment attempt. */
  | { type: "lookup"; id: number; providers: ProviderName[]; query: ProviderQuery }
  /** The caller's signal fired (shutdown, lease end): end those lookups as `aborted`. */
  | { type: "abort"; id: number }
  /** The answer to `take-slots`: the grant, or null when the database could not be reached. */
  | { type: "slots"; id: number; grant: SlotGrant | null; error?: string };

export type FromThread =
  /** Every provider's answer, in the order asked, once the slowest has answered. */
  | { type: "results"; id: number; results: ProviderResult[] }
  /** The resilience wrapper's log lines (circuit opened, closed), written by the main logger. */
  | { type: "log"; level: "info" | "warn"; details: object; message: string }
  /** A provider's circuit breaker changed state (metrics on the main thread). */
  | { type: "circuit"; provider: ProviderName; state: BreakerState }
  /** A lease of rate-limit slots from the table every process shares (the thread has no db). */
  | { type: "take-slots"; id: number; ask: SlotAsk }
  /** No slot of `name` before `until` (a provider's 429), for every process. */
  | { type: "defer-slots"; name: string; until: number }
  /** The thread's event-loop delay histogram as it stands (metrics on the main thread). */
  | { type: "loop-delay"; snapshot: LoopDelaySnapshot };
