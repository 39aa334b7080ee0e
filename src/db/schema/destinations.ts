/**
 * What destinations are sent: the customer events, one delivery per destination and event, and
 * each attempt at it. The destinations table stays in db/schema.ts beside DestinationKindNames,
 * the interface each kind adds its name to by declaration merging on that module.
 */
import type { Generated } from "kysely";
import type { AlertAttemptOutcome } from "./alerts.js";

/**
 * `customer.not_vip` is not subscribed to on its own: it goes wherever `customer.vip` goes
 * (destinations/enqueue-deliveries.ts), so a destination told of a VIP is told when they stop.
 */
export type DestinationEvent =
  | "customer.enriched"
  | "customer.vip"
  | "customer.not_vip"
  | "customer.forgotten";
export type DestinationDeliveryStatus = "pending" | "delivered" | "failed";

export interface DestinationDeliveriesTable {
  /** Also the webhook-id: the same on every attempt, so a receiver can drop duplicates. */
  id: string;
  destination_id: string;
  account_id: string;
  /** Null once the person is forgotten (a customer.forgotten delivery is never linked). */
  customer_id: string | null;
  event: DestinationEvent;
  /** Unique per destination: `<event>:<customer id>`. */
  event_key: string;
  historical: Generated<number>;
  /** The exact JSON sent; null once a customer.forgotten delivery has finished. */
  body: string | null;
  status: DestinationDeliveryStatus;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: number;
  delivered_at: number | null;
}

export interface DestinationAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: number;
  outcome: AlertAttemptOutcome;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}
