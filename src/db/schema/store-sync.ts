/**
 * Connected stores (Shopify, WooCommerce): each connection's credentials, sync cursor, counts and
 * webhook health (features/store-sync), and the verified deliveries its webhooks brought
 * (features/store-webhooks).
 */
import type { Generated } from "kysely";

export type StorePlatform = "shopify" | "woocommerce";
export type StoreConnectionState = "active" | "paused" | "broken";

export interface StoreConnectionsTable {
  id: string;
  account_id: string;
  store_id: string;
  platform: StorePlatform;
  /** Shopify: the shop's domain (name.myshopify.com); WooCommerce: the site's URL. */
  shop: string;
  /** AES-256-GCM ciphertext of the credentials (features/store-sync/credentials.ts). */
  credentials: string;
  /** The credentials' last 4 characters: all that is ever shown. */
  credentials_hint: string;
  state: StoreConnectionState;
  /** JSON: where the next sync starts (per platform). */
  cursor: string;
  /** Orders created before this are history: no alert, backfill priority. */
  live_after: number;
  last_sync_at: number | null;
  orders_synced: number;
  orders_skipped: number;
  /** JSON `{reason: count}` of the orders not taken. */
  skip_reasons: Generated<string>;
  /** Consecutive failed syncs (backoff); 0 after a good one. */
  failures: number;
  last_error: string | null;
  /** Webhook health (features/store-webhooks; migration 0024 says each state). */
  webhooks: Generated<StoreWebhooksState>;
  webhook_note: string | null;
  /** JSON array of the platform's ids of Velvet's subscriptions. */
  webhook_ids: Generated<string>;
  webhook_last_at: number | null;
  webhook_checked_at: number | null;
  created_at: number;
  updated_at: number;
}

export type StoreWebhooksState = "off" | "active" | "failing";

/** A verified delivery from a connected store (features/store-webhooks). */
export interface StoreEventsTable {
  id: string;
  connection_id: string;
  /** The platform's id of the delivery (X-Shopify-Webhook-Id, X-WC-Webhook-Delivery-ID). */
  delivery_id: string;
  topic: string;
  /** The raw payload; null once processed. */
  body: string | null;
  received_at: number;
  processed_at: number | null;
  /** What became of it: `taken`, `skipped: <reason>`, `ignored: <why>`. */
  outcome: string | null;
}
