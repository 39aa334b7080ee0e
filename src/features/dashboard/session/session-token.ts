/**
 * Session and CSRF secrets. The session id is 32 random bytes; the database stores only its
 * SHA-256, so a leaked copy of the sessions table cannot be replayed as a login.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A session ends after a week without use, and after 30 days whatever happens. */
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
/** Sliding expiry is written at most once an hour per session, keeping page views read-only. */
export const SESSION_EXTEND_EVERY_MS = 3600_000;

export function newSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function hashSessionId(rawId: string): string {
  return createHash("sha256").update(rawId).digest("hex");
}

/** True when the value could be one of our secrets: 43 base64url characters. */
export function isWellFormedSecret(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
