/**
 * What the order-intake use case takes and answers (submit-order.ts), in a file of their own so
 * the PostgreSQL one-statement path (submission-statement.ts) can answer the same shape.
 */

import type { JobPriority } from "../../jobs/claim-jobs.js";
import type { EnrichmentOptions } from "../enrichment/enqueue-enrichment.js";

export type EnrichmentStatusAnswer = "queued" | "retry" | "existing";

export interface SubmitOrderResult {
  customerId: string;
  orderId?: string;
  enrichmentStatus: EnrichmentStatusAnswer;
}

/** What the API does not answer but an importer counts. */
export interface SubmitOrderOutcome extends SubmitOrderResult {
  newCustomer: boolean;
  /** false when the order id was already stored (a repeat). */
  newOrder: boolean;
}

export interface SubmitOrderOptions {
  /** Dates the order (and a new customer): epoch ms. Default: when received. */
  orderedAt?: number;
  /** false: this customer's enrichment raises no VIP alert. Default true. */
  alerts?: boolean;
  /** The enrichment job's priority. Default "live". */
  priority?: JobPriority;
  /** The request's X-Request-Id, carried by the enrichment job. */
  requestId?: string | null;
  /**
   * Generated sample data (velvet demo): a new customer is marked as sample and not charged.
   * Default false.
   */
  sample?: boolean;
}

/** The enrichment job's options for a submission: alerts on and live priority unless told. */
export function enrichmentOptions(
  options: SubmitOrderOptions,
  accountId: string,
): EnrichmentOptions {
  return { alerts: options.alerts ?? true, priority: options.priority ?? "live", accountId };
}
