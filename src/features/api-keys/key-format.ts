/**
 * API key format: `sk_live_` + 32 random base62 characters + a 6-character base62 CRC-32 of
 * those 32 (as GitHub's tokens do). The checksum lets a typo or a made-up key be refused without a database query.
 * Only the SHA-256 of the whole key is stored, with its last 4 characters for display.
 */
import crypto, { createHash, randomInt } from "node:crypto";

export const KEY_PREFIX = "sk_live_";
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_RE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(n: number, width: number): string {
  let out = "";
  let rest = n;
  for (let i = 0; i < width; i++) {
    out = BASE62[rest % 62] + out;
    rest = Math.floor(rest / 62);
  }
  return out;
}

// CRC-32 (IEEE), in JavaScript: zlib.crc32 needs Node 20.15, and a hash would cost more.
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

export function crc32(text: string): number {
  let crc = 0xffffffff;
  for (let i = 0; i < text.length; i++) {
    crc = (CRC_TABLE[(crc ^ text.charCodeAt(i)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function checksum(random: string): string {
  return base62(crc32(random), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  let random = "";
  for (let i = 0; i < RANDOM_LENGTH; i++) random += BASE62[randomInt(62)];
  return `${KEY_PREFIX}${random}${checksum(random)}`;
}

/** True when the key has the right shape and its checksum matches. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_RE.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length);
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/** Node's one-shot hash (20.12 and later) where there is one: a third of a Hash object's CPU. */
const oneShot = typeof crypto.hash === "function" ? crypto.hash : null;

export function hashApiKey(key: string): string {
  if (oneShot !== null) return oneShot("sha256", key, "hex");
  return createHash("sha256").update(key).digest("hex");
}

export function lastFour(key: string): string {
  return key.slice(-4);
}

/** Reads the key from `Authorization: Bearer <key>` (scheme case-insensitive) or `x-api-key`. */
export function apiKeyFromHeaders(
  headers: Record<string, string | string[] | undefined>,
): string | null {
  const authorization = headers.authorization;
  if (typeof authorization === "string") {
    const m = /^bearer\s+(\S+)\s*$/i.exec(authorization.trim());
    if (m?.[1]) return m[1];
  }
  const header = headers["x-api-key"];
  if (typeof header === "string" && header.trim() !== "") return header.trim();
  return null;
}
