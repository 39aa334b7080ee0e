/**
 * What enrichment needs beyond `Deps`, built in main.ts: the providers, the way to ask them, and
 * the two events it raises (a customer enriched, a VIP found), each a list of handlers that the
 * features which care (alerts, destinations) register in main.ts; enrichment knows none of them.
 */
import type { EventHandler } from "../../jobs/event-handlers.js";
import type { LookupAll } from "./providers/lookup-all.js";
import type { EnrichmentProvider } from "./providers/provider.js";
import type { ScoreSignal } from "./score/score-signal.js";

export interface EnrichmentDeps {
  /**
   * The configured enrichment providers, each behind its limits and circuit breaker, running on
   * the provider thread (providers/provider-thread.ts).
   */
  providers: EnrichmentProvider[];
  /** Asks several of `providers` about one person (on the thread: one message for all). */
  lookupAll: LookupAll;
  events: EnrichmentEvents;
}

/** A customer whose enrichment just finished, VIP or not. */
export interface CustomerEnriched {
  accountId: string;
  customerId: string;
  score: number;
  threshold: number;
  vip: boolean;
  /** The score's explanation, every line of it. */
  signals: ScoreSignal[];
  /** From an imported history or a store backfill: machines hear of it, people are not alerted. */
  historical: boolean;
  /** The request that enqueued the enrichment: what follows carries it on. */
  requestId: string | null;
}

/** A customer the enrichment just found to be a VIP (raised after `customerEnriched`). */
export type VipFound = CustomerEnriched & { vip: true };

export interface EnrichmentEvents {
  customerEnriched: EventHandler<CustomerEnriched>[];
  vipFound: EventHandler<VipFound>[];
}
