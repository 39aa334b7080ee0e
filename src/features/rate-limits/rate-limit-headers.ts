/**
 * The IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers, the 2025–2026
 * revisions): `RateLimit-Policy` names the policy with its quota `q` per window `w` seconds,
 * `RateLimit` gives what is left `r` and the seconds `t` until the window ends. Both are
 * Structured Field lists whose items are quoted policy names. A refusal adds `Retry-After`.
 */
import type { RateDecision } from "./key-rate-limiter.js";

export const RATE_LIMIT_POLICY_NAME = "per-key";

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    "ratelimit-policy": `"${RATE_LIMIT_POLICY_NAME}";q=${decision.limit};w=60`,
    ratelimit: `"${RATE_LIMIT_POLICY_NAME}";r=${decision.remaining};t=${decision.resetSeconds}`,
  };
  if (!decision.allowed) headers["retry-after"] = String(decision.resetSeconds);
  return headers;
}

export function rateLimitMessage(decision: RateDecision): string {
  return `Rate limit of ${decision.limit} requests per minute exceeded for this API key; retry in ${decision.resetSeconds} s`;
}
