/**
 * A store's credentials at rest, sealed under STORE_TOKEN_KEY by lib/sealer.ts (AES-256-GCM, the
 * connection's id as additional authenticated data, so a ciphertext copied onto another
 * connection's row does not decrypt). Only the last 4
 * characters of a token or secret are ever shown (`hintOf`).
 */
import { z } from "zod";
import { AppError } from "../../lib/app-error.js";
import { createSealer } from "../../lib/sealer.js";

export const CredentialsSchema = z.discriminatedUnion("platform", [
  z.object({ platform: z.literal("shopify"), token: z.string().min(1) }),
  z.object({
    platform: z.literal("woocommerce"),
    key: z.string().min(1),
    secret: z.string().min(1),
  }),
]);
export type Credentials = z.infer<typeof CredentialsSchema>;

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
  const secret = credentials.platform === "shopify" ? credentials.token : credentials.secret;
  return `…${secret.slice(-4)}`;
}
