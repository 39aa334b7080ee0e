/**
 * A destination's secret (a webhook's signing secret, a CRM's API key) at rest: sealed by
 * lib/sealer.ts under STORE_TOKEN_KEY, the key that already protects store credentials, with
 * the destination's id as additional data.
 */
import { z } from "zod";
import { AppError } from "../../lib/app-error.js";
import { createSealer } from "../../lib/sealer.js";

const sealer = createSealer(z.object({ secret: z.string().min(1) }));

export const NO_SECRET_KEY_MESSAGE =
  "Adding a destination needs STORE_TOKEN_KEY, the key that encrypts credentials at rest: set it to 32 random bytes (openssl rand -base64 32) on every Velvet process, then add it again";

export function requireSecretKey(key: Buffer | null): Buffer {
  if (key === null) throw new AppError("bad_request", NO_SECRET_KEY_MESSAGE);
  return key;
}

export function sealSecret(key: Buffer, destinationId: string, secret: string): string {
  return sealer.seal(key, destinationId, { secret });
}

/** The secret cannot be read with the key this process has: none, or not the sealing one. */
export class SecretUnreadableError extends Error {
  override name = "SecretUnreadableError";
}

export function openSecret(key: Buffer | null, destinationId: string, sealed: string): string {
  if (key === null)
    throw new SecretUnreadableError(
      "STORE_TOKEN_KEY is not set: the destination's secret cannot be read",
    );
  try {
    return sealer.open(key, destinationId, sealed).secret;
  } catch {
    throw new SecretUnreadableError(
      "STORE_TOKEN_KEY is not the key the destination's secret was sealed with: it cannot be read",
    );
  }
}

/** What people may see of a secret: `…abcd`. */
export function hintOf(secret: string): string {
  return `…${secret.slice(-4)}`;
}
