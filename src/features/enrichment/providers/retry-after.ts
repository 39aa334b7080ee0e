/**
 * When a provider says to come back: `Retry-After` (lib/retry-after.ts), else
 * `X-RateLimit-Reset`, which People Data Labs and others send in several shapes (epoch seconds,
 * seconds from now, a date, or a JSON object with one reset per window). Values are clamped to
 * [0, 1 hour] so a confused header cannot park a job for days.
 */
import { clampDelay as clamp, parseRetryAfter } from "../../../lib/retry-after.js";

export function retryAfterFromHeaders(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get("retry-after");
  const fromRetryAfter = retryAfter === null ? undefined : parseRetryAfter(retryAfter, now);
  if (fromRetryAfter !== undefined) return fromRetryAfter;
  const reset = headers.get("x-ratelimit-reset");
  return reset === null ? undefined : parseRateLimitReset(reset, now);
}

/**
 * The soonest future reset among the values found. A bare number is read as epoch milliseconds
 * above 10^12, epoch seconds above 10^9, and seconds from now below that.
 */
export function parseRateLimitReset(value: string, now: number): number | undefined {
  const candidates = resetCandidates(value.trim())
    .map((candidate) => resetToDelay(candidate, now))
    .filter((delay): delay is number => delay !== undefined);
  return candidates.length === 0 ? undefined : Math.min(...candidates);
}

function resetCandidates(text: string): unknown[] {
  if (!text.startsWith("{") && !text.startsWith("[")) return [text];
  try {
    const parsed: unknown = JSON.parse(text);
    if (Array.isArray(parsed)) return parsed;
    if (parsed !== null && typeof parsed === "object") return Object.values(parsed);
  } catch {
    // Not JSON after all: fall through and let the date parser try the text.
  }
  return [text];
}

function resetToDelay(candidate: unknown, now: number): number | undefined {
  const text = typeof candidate === "number" ? String(candidate) : candidate;
  if (typeof text !== "string") return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) {
    const n = Number(text);
    if (n > 1e12) return clamp(n - now);
    if (n > 1e9) return clamp(n * 1000 - now);
    return clamp(n * 1000);
  }
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : clamp(at - now);
}
