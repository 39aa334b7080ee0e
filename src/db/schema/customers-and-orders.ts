/**
 * A store's customers and their orders, as the order API, imports and store sync write them, and
 * the keyed hashes of orders that belonged to a forgotten customer; with the row types code reads
 * and inserts (Customer, NewCustomer, Order).
 */
import type { Generated, Insertable, Selectable } from "kysely";

export type EnrichmentStatus = "pending" | "enriched" | "failed";

export interface CustomersTable {
  id: string;
  store_id: string;
  email: string;
  email_normalized: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  address_city: string | null;
  address_state: string | null;
  address_zipcode: string | null;
  address_country: string | null;
  enrichment_status: EnrichmentStatus;
  /** The Shopify customer's GID from the latest order synced from Shopify; null otherwise. */
  shopify_customer_id: Generated<string | null>;
  created_at: number;
  updated_at: number;
  /**
   * 1: generated sample data (velvet demo), never billed or alerted, always in the account's
   * sample store; 0: a real customer, always in the real store.
   */
  sample: Generated<number>;
}

export interface OrdersTable {
  id: string;
  store_id: string;
  customer_id: string;
  external_order_id: string | null;
  order_number: string | null;
  total: string | null;
  currency: string;
  created_at: number;
  /** The platform's status (`paid`, `cancelled` …); null when the source said none (API, import). */
  status: Generated<string | null>;
  /**
   * 1: a purchase; 0: cancelled, refunded in full, voided or binned (store-sync/order-status.ts):
   * shown with the customer's orders, left out of every count and score of purchases.
   */
  counts: Generated<number>;
  /** The platform's update time (epoch ms) of the status held: an older update never wins. */
  status_at: Generated<number | null>;
}

/** A keyed hash of an order id that belonged to a forgotten customer (features/orders). */
export interface ForgottenOrdersTable {
  store_id: string;
  order_hash: string;
  created_at: number;
}

export type Customer = Selectable<CustomersTable>;
export type NewCustomer = Insertable<CustomersTable>;
export type Order = Selectable<OrdersTable>;
