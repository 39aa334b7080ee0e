import { randomBytes } from "node:crypto";

/**
 * Random bits are drawn from a pool of hex digits refilled 4 KiB of random bytes at a time, and
 * the time's 12 digits are made once per millisecond: one randomBytes call per id cost more CPU
 * than the insert it was for, and encoding each id's bytes to hex and slicing it into groups
 * cost as much again (order intake makes four ids per new customer).
 */
const POOL_BYTES = 4096;
/** Random hex digits per id: 3 (rand_a), 1 (two variant bits), 3 + 12 (rand_b). */
const DIGITS_PER_ID = 19;
let pool = randomBytes(POOL_BYTES).toString("hex");
let offset = 0;

/** The variant nibble (RFC 9562: 10xx) for a random hex digit, by its character code. */
const VARIANT: string[] = [];
for (const digit of "0123456789abcdef") {
  VARIANT[digit.charCodeAt(0)] = "89ab"[Number.parseInt(digit, 16) & 3] as string;
}

let lastMs = -1;
/** "tttttttt-tttt-7" for lastMs. */
let timeHead = "";

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Time-ordered ids
 * keep B-tree inserts at the right edge of the index on both engines.
 */
export function newId(now: number = Date.now()): string {
  if (now !== lastMs) {
    lastMs = now;
    const t = Math.floor(now).toString(16).padStart(12, "0");
    timeHead = `${t.slice(0, 8)}-${t.slice(8, 12)}-7`;
  }
  if (offset + DIGITS_PER_ID > pool.length) {
    pool = randomBytes(POOL_BYTES).toString("hex");
    offset = 0;
  }
  const o = offset;
  offset += DIGITS_PER_ID;
  return `${timeHead}${pool.slice(o, o + 3)}-${VARIANT[pool.charCodeAt(o + 3)]}${pool.slice(o + 4, o + 7)}-${pool.slice(o + 7, o + 19)}`;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
