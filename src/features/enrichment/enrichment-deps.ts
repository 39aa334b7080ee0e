/**
 * What enrichment needs beyond `Deps`, built in main.ts: the providers, the way to ask them, and
 * where a new VIP goes (the alerts feature, which enrichment does not know).
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import type { LookupAll } from "./providers/lookup-all.js";
import type { EnrichmentProvider } from "./providers/provider.js";

export interface EnrichmentDeps {
  /**
   * The configured enrichment providers, each behind its limits and circuit breaker, running on
   * the provider thread (providers/provider-thread.ts).
   */
  providers: EnrichmentProvider[];
  /** Asks several of `providers` about one person (on the thread: one message for all). */
  lookupAll: LookupAll;
  onVip: OnVip;
}

/** A customer the enrichment just found to be a VIP. */
export interface VipFound {
  accountId: string;
  customerId: string;
  score: number;
  threshold: number;
  /** The request that enqueued the enrichment: what follows carries it on. */
  requestId: string | null;
}

/**
 * Hands a new VIP on, inside the transaction that stores the result (so a VIP is never stored
 * without what follows, nor handed on twice). main.ts wires it to the alerts feature.
 */
export type OnVip = (trx: Transaction<Database>, vip: VipFound, now: number) => Promise<void>;
