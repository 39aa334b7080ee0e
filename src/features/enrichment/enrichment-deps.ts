/**
 * What enrichment needs beyond `Deps`, built in main.ts: the providers, the way to ask them, and
 * the events it raises (a customer enriched, a VIP found, a VIP lost), each a list of handlers
 * that the features which care (alerts, destinations) register in main.ts; enrichment knows
 * none of them.
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
  /**
   * Set when a re-judge (rejudge/) changed the VIP decision: events about a change are new
   * events (delivered again), whereas an enrichment's are delivered once per customer.
   */
  change?: VipChange;
}

/** A re-judge that moved the customer over the line or back under it. */
export interface VipChange {
  kind: "promoted" | "demoted";
  /** When (epoch ms): with the customer, what makes this change's events distinct. */
  at: number;
  /** In words: "now a VIP: $3,020.00 over 21 orders". */
  reason: string;
}

/** A customer the enrichment just found to be a VIP (raised after `customerEnriched`). */
export type VipFound = CustomerEnriched & { vip: true };

/** A VIP a re-judge found under the line (raised after `customerEnriched`); nobody is alerted. */
export type VipLost = CustomerEnriched & { vip: false; change: VipChange };

export interface EnrichmentEvents {
  customerEnriched: EventHandler<CustomerEnriched>[];
  vipFound: EventHandler<VipFound>[];
  vipLost: EventHandler<VipLost>[];
}
