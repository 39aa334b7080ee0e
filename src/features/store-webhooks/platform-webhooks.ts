/**
 * What Velvet asks of a platform's webhooks, whichever the platform: subscribe the order topics
 * to Velvet's address for the connection, list what the platform holds (to notice a
 * subscription deleted in the store's admin or disabled by the platform), and remove them when
 * the connection goes. Calls fail with PlatformError (store-sync/platform-http.ts), as the
 * order reads do.
 */
export interface WebhookSubscription {
  /** The platform's id: Shopify's WebhookSubscription GID, WooCommerce's webhook id. */
  id: string;
  /** The platform's topic: `ORDERS_CREATE`, `order.updated` … */
  topic: string;
  /** Where the platform delivers. */
  address: string;
  /** false: held but not delivering (WooCommerce `paused` or `disabled`). */
  active: boolean;
}

export interface PlatformWebhooks {
  /**
   * Makes sure every order topic Velvet needs is subscribed and active at `address`: creates
   * what is missing, re-activates what is disabled, leaves what is there. Answers what is
   * subscribed afterwards. WooCommerce webhooks are signed with `secret`; Shopify signs with
   * the app's client secret and ignores it.
   */
  subscribe(address: string, secret: string, signal: AbortSignal): Promise<WebhookSubscription[]>;
  /** The subscriptions the platform holds that deliver to `address` (any state). */
  list(address: string, signal: AbortSignal): Promise<WebhookSubscription[]>;
  /** Removes these subscriptions; one already gone is not an error. */
  remove(ids: string[], signal: AbortSignal): Promise<void>;
}
