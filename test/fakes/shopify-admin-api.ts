/**
 * What a test holds of the fake Shopify Admin API (shopify-admin.ts): its handle (addresses,
 * credentials, orders, webhook subscriptions and deliveries, the hooks that script it), its
 * options, and the record of each request it answered.
 */
import type { OrderEvents } from "./shopify-order-events.js";
import type { ShopifyOrderNode } from "./shopify-orders.js";
import type { FakeWebhookSubscription } from "./shopify-webhook-subscriptions.js";
import type { DeliveryAttempt } from "./shopify-webhooks.js";

export type ShopifyReply =
  | { status: number; body?: string; headers?: Record<string, string> }
  | "throttled";

export interface ShopifyRequest {
  at: number;
  /** "graphql" or "token" (the client-credentials grant). */
  path: "graphql" | "token" | "other";
  token: string | undefined;
  variables: Record<string, unknown>;
  /** What the fake answered: 200, "THROTTLED", or the scripted status. */
  answered: number | "THROTTLED";
  /** The cost charged (requested) for a GraphQL query. */
  cost?: number;
  /** The Admin API version asked for in the URL, and the one that answered (fell forward). */
  version?: { asked: string; served: string };
}

export interface FakeShopify extends OrderEvents {
  origin: string;
  /** What X-Shopify-Shop-Domain says: the fake's host (a real shop's is name.myshopify.com). */
  shopDomain: string;
  /** What `--shop` takes in tests (private addresses allowed). */
  shop: string;
  token: string;
  clientId: string;
  clientSecret: string;
  /**
   * A legacy custom app's "API secret key" (its client secret, shown under API credentials of an
   * app made in the admin: https://shopify.dev/docs/apps/build/authentication-authorization/access-tokens/generate-app-access-tokens-admin):
   * what signs the webhooks of subscriptions made with its fixed `shpat_` token. A Dev Dashboard
   * app's are signed with `clientSecret` ("the app's client secret":
   * https://shopify.dev/docs/apps/build/webhooks/delivery-structure).
   */
  apiSecretKey: string;
  orders: ShopifyOrderNode[];
  /** The app's webhook subscriptions, as Shopify holds them. */
  subscriptions: FakeWebhookSubscription[];
  /** Every delivery attempt, with what the receiver answered. */
  deliveries: DeliveryAttempt[];
  /** The next n deliveries are lost without an attempt. */
  dropNextDeliveries(n: number): void;
  /**
   * The app's webhook subscriptions vanish outside Velvet (the merchant uninstalls and reinstalls
   * the app, a support action): deliveries stop, and only polling and a new subscribe() notice.
   * Subscriptions made through the API are not listed in the admin's Settings › Notifications
   * (https://shopify.dev/docs/api/admin-rest/latest/resources/webhook, "Considerations").
   */
  deleteSubscriptionsInAdmin(): void;
  /**
   * Resolves when no delivery is in flight or waiting for a retry. With the real schedule
   * (retryScale 1) a delivery that keeps failing takes 4 hours: scale it in such tests.
   */
  deliveriesSettled(): Promise<void>;
  requests: ShopifyRequest[];
  /** Queues replies for the next GraphQL requests, in order, before any query is answered. */
  reply(...replies: ShopifyReply[]): void;
  /** Every token the grant gave so far expires now (as 24 hours later). */
  expireTokens(): void;
  bucket: { maximumAvailable: number; restoreRate: number; currentlyAvailable: number };
  options: Required<
    Pick<FakeShopifyOptions, "scopes" | "protectedCustomerData" | "tokenTtlSeconds">
  >;
  close(): Promise<void>;
}

export interface FakeShopifyOptions {
  token?: string;
  maximumAvailable?: number;
  restoreRate?: number;
  /** Granted scopes, comma-separated. Default read_orders,read_customers,read_all_orders. */
  scopes?: string;
  /** false: the app has no access to protected customer data. Default true. */
  protectedCustomerData?: boolean;
  /** Lifetime of a client-credentials token. Default 86399 (Shopify's 24 hours). */
  tokenTtlSeconds?: number;
  /** Multiplies the webhook retry delays (4 hours in all); 0.0001 makes them 1.4 s. Default 1. */
  retryScale?: number;
}
