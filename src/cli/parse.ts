import { InvalidArgumentError } from "commander";
import { parseTiers, type Tier } from "../features/customers/tiers.js";
import { isUuid } from "../lib/ids.js";

export function parseThreshold(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 0 || n > 100) {
    throw new InvalidArgumentError("the threshold is a whole number from 0 to 100");
  }
  return n;
}

/**
 * A whole number of requests a minute (0: unlimited), or "" for "the default" (returned as
 * "default": commander keeps the raw string when a parser returns null).
 */
export function parseRateLimit(value: string): number | "default" {
  if (value.trim() === "") return "default";
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 10_000_000) {
    throw new InvalidArgumentError(
      'the rate limit is a whole number of requests a minute (0: unlimited; "": the default)',
    );
  }
  return n;
}

/** "Gold:90,Silver:80" → the tiers ("" → none); every problem named in one message. */
export function parseTiersOption(value: string): Tier[] {
  const checked = parseTiers(value);
  if (!checked.ok) throw new InvalidArgumentError(`${checked.errors.join("; ")}.`);
  return checked.tiers;
}

export function parseId(value: string): string {
  if (!isUuid(value)) throw new InvalidArgumentError("expected an id (UUID)");
  return value.toLowerCase();
}

export function parsePage(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1) {
    throw new InvalidArgumentError("the page is a whole number from 1");
  }
  return n;
}

export function parseLimit(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > 1000)
    throw new InvalidArgumentError("the limit is a whole number from 1 to 1000");
  return n;
}
