/**
 * The per-key rate limit of one authenticated request: the account's own limit when it has one
 * (`velvet account set --rate-limit N`), else API_RATE_LIMIT_PER_MINUTE; 0 means none. Returns
 * the headers to send (none when unlimited); over the limit, throws the 429.
 */
import { AppError } from "../../lib/app-error.js";
import type { AuthenticatedKey } from "../api-keys/authenticate-api-key.js";
import type { KeyRateLimiter } from "./key-rate-limiter.js";
import { rateLimitHeaders, rateLimitMessage } from "./rate-limit-headers.js";

export async function checkRateLimit(
  limiter: KeyRateLimiter,
  key: AuthenticatedKey,
  defaultPerMinute: number,
): Promise<Record<string, string>> {
  const limit = key.rateLimitPerMinute ?? defaultPerMinute;
  if (limit <= 0) return {};
  // From memory almost always; the first request of a key in a window waits for its lease.
  const decision = await limiter.take(key.keyId, limit);
  const headers = rateLimitHeaders(decision);
  if (!decision.allowed) {
    throw new AppError("too_many_requests", rateLimitMessage(decision), headers);
  }
  return headers;
}
