/**
 * Enrichment's results (features/enrichment): a customer's score, VIP decision and merged profile,
 * each provider's answer about them, and how far the periodic re-judge has read the orders.
 */
import type { Generated } from "kysely";

export interface EnrichmentsTable {
  customer_id: string;
  score: number | null;
  vip: number | null;
  /** The threshold the VIP decision was made against. */
  threshold: number | null;
  /** JSON array of {source, signal, value, points}. */
  signals: Generated<string>;
  /** JSON: the normalised profile merged from all providers. */
  profile: Generated<string>;
  attempts: Generated<number>;
  last_error: string | null;
  started_at: number | null;
  enriched_at: number | null;
  updated_at: number;
  /** Non-zero while the monthly budget stopped this customer's paid lookups (2: imported history). */
  paid_lookups_deferred: Generated<number>;
  /** When the customer became the VIP they are now (enrichment or re-judge); null: not a VIP. */
  vip_since: Generated<number | null>;
  /** The last time a re-judge changed the VIP decision (rejudge/), and why in words. */
  vip_changed_at: Generated<number | null>;
  vip_change_reason: Generated<string | null>;
  /** The last re-judge that stored a score; null: the score is the enrichment's. */
  rejudged_at: Generated<number | null>;
}

/** How far the periodic re-judge has read the orders received (by time-ordered order id). */
export interface RejudgeCursorsTable {
  name: string;
  last_order_id: string;
  updated_at: number;
}

export type ProviderOutcome = "matched" | "not_found" | "transient" | "permanent";

export interface ProviderResultsTable {
  id: string;
  customer_id: string;
  provider: string;
  outcome: ProviderOutcome;
  http_status: number | null;
  /** The provider's answer as received (JSON text), kept for audit. */
  raw: string | null;
  /** JSON: the normalised ProfileFragment of a match. */
  profile: string | null;
  error: string | null;
  fetched_at: number;
  /** When retention removed `raw` (PROVIDER_DATA_RETENTION_DAYS); the profile stays. */
  raw_cleared_at: Generated<number | null>;
  /** How sure the provider was of a match, as it says it ("likelihood 9/10"); null otherwise. */
  confidence: Generated<string | null>;
}
