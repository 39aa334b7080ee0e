/**
 * A store's credentials at rest: AES-256-GCM under STORE_TOKEN_KEY, stored as
 * `v1:<iv>:<tag>:<ciphertext>` (base64). The connection's id is the additional authenticated
 * data, so a ciphertext copied onto another connection's row does not decrypt. Only the last 4
 * characters of a token or secret are ever shown (`hintOf`).
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { z } from "zod";
import { AppError } from "../../lib/app-error.js";

/**
 * Shopify: a fixed Admin API token (`shpat_…`, an app made in the admin before 2026), or a Dev
 * Dashboard app's client id and secret, with the last token the client-credentials grant gave
 * (`accessToken`, `expiresAt` epoch ms, `scope`), renewed before it expires.
 * WooCommerce: the REST API key; `queryAuth` when the site's server strips the Authorization
 * header (the key goes in the query string, HTTPS only), `plainRoute` when the site has "Plain"
 * permalinks (no /wp-json/, `?rest_route=` instead): both found out by the client.
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
  }),
  z.object({
    platform: z.literal("woocommerce"),
    key: z.string().min(1),
    secret: z.string().min(1),
    queryAuth: z.boolean().optional(),
    plainRoute: z.boolean().optional(),
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

export function sealCredentials(key: Buffer, connectionId: string, credentials: Credentials) {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(connectionId));
  const sealed = Buffer.concat([
    cipher.update(JSON.stringify(credentials), "utf8"),
    cipher.final(),
  ]);
  const parts = [iv, cipher.getAuthTag(), sealed].map((b) => b.toString("base64"));
  return `v1:${parts.join(":")}`;
}

/** Throws when the key is wrong (rotated without re-connecting) or the row was tampered with. */
export function openCredentials(key: Buffer, connectionId: string, sealed: string): Credentials {
  const [version, iv, tag, data] = sealed.split(":");
  if (version !== "v1" || iv === undefined || tag === undefined || data === undefined) {
    throw new Error("stored credentials are not in a known format");
  }
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
    decipher.setAAD(Buffer.from(connectionId));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    const text = Buffer.concat([
      decipher.update(Buffer.from(data, "base64")),
      decipher.final(),
    ]).toString("utf8");
    return CredentialsSchema.parse(JSON.parse(text));
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
}
