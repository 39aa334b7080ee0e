/**
 * Where a Shopify shop is: its myshopify.com domain from what a merchant pastes, its origin, and
 * the Admin GraphQL endpoint for the API version Velvet speaks (SHOPIFY_API_VERSION; its
 * lifecycle in shopify-api-version.ts). Shared by the order reads (shopify-client.ts), the
 * webhook subscriptions (store-webhooks) and the writes back to Shopify (destinations).
 */
import { AppError } from "../../lib/app-error.js";

/**
 * How Velvet reaches a shop: whether private addresses are allowed (tests, a proxy) and the
 * Admin API version in the URL.
 */
export interface ShopifyAccess {
  allowPrivate: boolean;
  apiVersion: string;
}

/** `name.myshopify.com`; with private addresses allowed (tests, a proxy), any http(s) origin. */
export function shopifyEndpoint(shop: string, access: ShopifyAccess): string {
  const origin = shopOrigin(shop, access.allowPrivate);
  return `${origin}/admin/api/${access.apiVersion}/graphql.json`;
}

/** The shop as stored: its myshopify.com domain (with private addresses allowed, an origin). */
export function normalizeShop(shop: string, allowPrivate: boolean): string {
  const s = shop.trim().toLowerCase().replace(/\/+$/, "");
  return shopDomain(s) ?? shopOrigin(s, allowPrivate);
}

/**
 * The shop's myshopify.com domain from what a merchant pastes: the domain itself, its https://
 * address (any path), the admin's address (admin.shopify.com/store/<name>/…) or the bare shop
 * name. Null when it is none of these.
 */
export function shopDomain(input: string): string | null {
  const s = input.trim().toLowerCase();
  const admin =
    /^(?:https?:\/\/)?admin\.shopify\.com\/store\/([a-z0-9][a-z0-9-]*)(?:[/?#].*)?$/.exec(s);
  if (admin) return `${admin[1]}.myshopify.com`;
  const host = /^(?:https?:\/\/)?([a-z0-9][a-z0-9-]*\.myshopify\.com)(?::443)?(?:[/?#].*)?$/.exec(
    s,
  );
  if (host) return host[1] as string;
  if (/^[a-z0-9][a-z0-9-]*$/.test(s)) return `${s}.myshopify.com`;
  return null;
}

export function shopOrigin(shop: string, allowPrivate: boolean): string {
  const s = shop.trim().toLowerCase().replace(/\/+$/, "");
  const domain = shopDomain(s);
  if (domain !== null) return `https://${domain}`;
  if (allowPrivate && /^https?:\/\//.test(s)) {
    try {
      return new URL(s).origin;
    } catch {
      // falls through to the message below
    }
  }
  throw new AppError(
    "bad_request",
    `The shop's address must be its myshopify.com domain, such as acme.myshopify.com, or its name (got "${shop}")`,
  );
}
