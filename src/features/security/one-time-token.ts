/**
 * Tokens for links sent by e-mail (sign-up verification, alert-address confirmation): 32 random
 * bytes in the link, only their SHA-256 in the database, so a copy of the database holds no
 * usable link.
 */
import { createHash, randomBytes } from "node:crypto";

export interface OneTimeToken {
  raw: string;
  hash: string;
}

export function newOneTimeToken(): OneTimeToken {
  const raw = randomBytes(32).toString("base64url");
  return { raw, hash: hashOneTimeToken(raw) };
}

export function hashOneTimeToken(raw: string): string {
  return createHash("sha256").update(raw).digest("hex");
}

/** True when the value could be one of our tokens: 43 base64url characters. */
export function isWellFormedToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
