/**
 * A store's credentials at rest, sealed under STORE_TOKEN_KEY by lib/sealer.ts (AES-256-GCM, the
 * connection's id as additional authenticated data, so a ciphertext copied onto another
 * connection's row does not decrypt). Only the last 4
 * characters of a token or secret are ever shown (`hintOf`).
 */
import { z } from "zod";
import { AppError } from "../../lib/app-error.js";
import { createSealer } from "../../lib/sealer.js";

/**
 * Shopify: a fixed Admin API token (`shpat_…`, an app made in the admin before 2026), or a Dev
 * Dashboard app's client id and secret, with the last token the client-credentials grant gave
 * (`accessToken`, `expiresAt` epoch ms, `scope`), renewed before it expires. Shopify signs an
 * app's webhooks with its client secret; an app with a fixed token gives its API secret key as
 * `webhookSecret`, or stays on polling.
 * WooCommerce: the REST API key; `queryAuth` when the site's server strips the Authorization
 * header (the key goes in the query string, HTTPS only), `plainRoute` when the site has "Plain"
 * permalinks (no /wp-json/, `?rest_route=` instead): both found out by the client.
 * `webhookSecret` signs the site's webhooks to Velvet: made by Velvet, given to WooCommerce.
 */
export const CredentialsSchema = z.discriminatedUnion("platform", [
  z.object({
    platform: z.literal("shopify"),
    token: z.string().min(1).optional(),
    clientId: z.string().min(1).optional(),
    clientSecret: z.string().min(1).optional(),
    accessToken: z.string().min(1).optional(),
    expiresAt: z.number().optional(),
    scope: z.string().optional(),
    /** A custom app made in the admin: its API secret key, which signs its webhooks. */
    webhookSecret: z.string().min(1).optional(),
  }),
  z.object({
    platform: z.literal("woocommerce"),
    key: z.string().min(1),
    secret: z.string().min(1),
    queryAuth: z.boolean().optional(),
    plainRoute: z.boolean().optional(),
    /** The secret Velvet gave WooCommerce for its webhooks (random, made at connect). */
    webhookSecret: z.string().min(1).optional(),
  }),
]);
export type Credentials = z.infer<typeof CredentialsSchema>;
export type ShopifyCredentials = Extract<Credentials, { platform: "shopify" }>;

export const NO_KEY_MESSAGE =
  "Connecting a store needs STORE_TOKEN_KEY, the key that encrypts store credentials at rest: set it to 32 random bytes (openssl rand -base64 32) on every Velvet process, then connect again";

export function requireKey(key: Buffer | null): Buffer {
  if (key === null) throw new AppError("bad_request", NO_KEY_MESSAGE);
  return key;
}

const sealer = createSealer(CredentialsSchema);

export function sealCredentials(key: Buffer, connectionId: string, credentials: Credentials) {
  return sealer.seal(key, connectionId, credentials);
}

/** Throws when the key is wrong (rotated without re-connecting) or the row was tampered with. */
export function openCredentials(key: Buffer, connectionId: string, sealed: string): Credentials {
  try {
    return sealer.open(key, connectionId, sealed);
  } catch {
    throw new Error(
      "stored credentials cannot be decrypted with this STORE_TOKEN_KEY: connect the store again",
    );
  }
}

/** What people may see of the credentials: `…abcd` (the token's or the secret's last 4). */
export function hintOf(credentials: Credentials): string {
  const secret =
    credentials.platform === "shopify"
      ? (credentials.token ?? credentials.clientSecret ?? "")
      : credentials.secret;
  return `…${secret.slice(-4)}`;
}

/**
 * The values of the credentials that open the store, to keep out of anything stored or shown
 * (lib/without-secrets.ts). The client id and the consumer key are identifiers: neither opens
 * anything without its secret.
 */
export function secretsOf(credentials: Credentials): string[] {
  const values =
    credentials.platform === "shopify"
      ? [
          credentials.token,
          credentials.clientSecret,
          credentials.accessToken,
          credentials.webhookSecret,
        ]
      : [credentials.secret, credentials.webhookSecret];
  return values.filter((value): value is string => value !== undefined);
}

/** A Shopify connection has either a token or a client id and secret, never both or neither. */
export function checkShopifyCredentials(credentials: ShopifyCredentials): void {
  const fixed = credentials.token !== undefined;
  const app = credentials.clientId !== undefined || credentials.clientSecret !== undefined;
  if (fixed === app || (app && (!credentials.clientId || !credentials.clientSecret))) {
    throw new AppError(
      "bad_request",
      "Shopify needs either the app's client id and client secret (--client-id and --client-secret) or an Admin API token (--token)",
    );
  }
  if (app && credentials.webhookSecret !== undefined) {
    throw new AppError(
      "bad_request",
      "--webhook-secret is for an app connected with an Admin API token: Shopify signs a Dev Dashboard app's webhooks with its client secret",
    );
  }
}

/**
 * A reconnection keeps the secret that signs the store's webhooks (WooCommerce's, made by
 * Velvet; a legacy Shopify app's API secret key) unless a new one is given: the subscriptions
 * the store holds go on being verified. Unreadable old credentials (STORE_TOKEN_KEY rotated)
 * keep nothing; the webhooks are then made again with a new secret (features/store-webhooks).
 */
export function keepWebhookSecret(
  key: Buffer,
  existing: { id: string; credentials: string },
  credentials: Credentials,
): Credentials {
  if (credentials.webhookSecret !== undefined) return credentials;
  let old: Credentials;
  try {
    old = openCredentials(key, existing.id, existing.credentials);
  } catch {
    return credentials;
  }
  if (old.platform !== credentials.platform || old.webhookSecret === undefined) return credentials;
  // A Dev Dashboard app signs with its client secret: an old token app's key is not kept.
  if (credentials.platform === "shopify" && credentials.clientSecret !== undefined)
    return credentials;
  return { ...credentials, webhookSecret: old.webhookSecret };
}
