/**
 * Glossary of store sync:
 * - connection: a store (Shopify shop or WooCommerce site) whose orders Velvet pulls, with its
 *   encrypted credentials and state (`active`, `paused`, `broken`).
 * - cursor: where the next page starts: `since` (orders updated at or after this instant),
 *   `after` (the platform's position inside that query: a GraphQL cursor or a page number) and
 *   `maxSeen` (the latest update seen in this pass, the next pass's `since`). It is saved in the
 *   transaction that stores the page's orders.
 * - pass: pages read until the platform has no next page; the next pass starts from `maxSeen`.
 * - history / live: an order created before the connection's `live_after` is history (its
 *   customer's enrichment is a backfill job and raises no VIP alert); a later one is live.
 */
import type { OrderSubmission } from "../orders/order-request.js";

export interface SyncCursor {
  /** ISO 8601: orders updated at or after this instant. */
  since: string;
  /** The platform's position inside the `since` query; null: its first page. */
  after: string | null;
  /** ISO 8601: the latest update seen in this pass. */
  maxSeen: string | null;
  /**
   * `<updatedAt ms>:<order id>` of the orders skipped in the latest second seen: the next page
   * or pass reads them again (its overlap) and must not count them twice.
   */
  skipped?: string[];
}

/** Why an order was not taken: the key under which skips are counted and shown. */
export type SkipReason =
  | "test order"
  | "awaiting payment"
  | "checkout draft"
  | "payment failed"
  | "forgotten customer"
  | "incomplete customer data"
  | "refused"
  | "cancelled"
  | "refunded"
  | "voided";

export type PulledOrder =
  | {
      kind: "order";
      externalId: string;
      submission: OrderSubmission;
      createdAt: number;
      updatedAt: number;
      /** Shopify's customer GID (gid://shopify/Customer/…), kept on the customer. */
      shopifyCustomerId?: string | null;
      /** The platform's status, and whether it is a purchase (order-status.ts). */
      status: string | null;
      counts: boolean;
    }
  | { kind: "skip"; externalId: string; updatedAt: number; reason: SkipReason; detail: string };

export interface OrdersPage {
  orders: PulledOrder[];
  /** The cursor once this page's orders are stored. */
  next: SyncCursor;
  /** No page after this one in this pass. */
  last: boolean;
}

export interface PlatformClient {
  /** One page of orders updated since the cursor, oldest update first. */
  fetchPage(cursor: SyncCursor, signal: AbortSignal): Promise<OrdersPage>;
  /** The access scopes the store granted (Shopify), or null when the platform has none. */
  grantedScopes?(signal: AbortSignal): Promise<string[] | null>;
  /** How many orders a pass from `since` would read (every status), as the platform counts. */
  countOrders(since: string, signal: AbortSignal): Promise<OrderCount>;
}

/** A platform's count: exact, or a floor when the platform stopped counting at its limit. */
export interface OrderCount {
  count: number;
  precision: "exact" | "at_least";
}

/** The next pass starts a second before the latest update seen: equal timestamps are not lost. */
export function nextPassSince(maxSeen: string | null, since: string): string {
  if (maxSeen === null) return since;
  const overlap = Date.parse(maxSeen) - 1000;
  return new Date(Math.max(overlap, Date.parse(since))).toISOString();
}

export function laterOf(a: string | null, b: string): string {
  return a === null || Date.parse(b) > Date.parse(a) ? b : a;
}
