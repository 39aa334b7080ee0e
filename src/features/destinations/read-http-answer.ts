/**
 * How an outbound call's answer (lib/outbound/outbound-http.ts) reads as a delivery result, the
 * same for every destination kind; a kind says only where its platform differs:
 * - an address the guard refuses fails; a timeout or a network error is tried again;
 * - 2xx is delivered, unless the kind reads the body further (`ok`: Shopify's GraphQL 200s
 *   carry their own errors);
 * - 429 waits for Retry-After without spending an attempt when the kind names a wait
 *   (`rateLimitWaitMs`, the default when Retry-After is absent: a number, or read from the
 *   answer when the platform's body says which limit was hit); otherwise it is retried;
 * - 408, 429 and 5xx are tried again, after Retry-After when the answer gives one;
 * - the kind's own reading of the other answers (`special`: a 410 that disables a webhook,
 *   Klaviyo's retired revision) comes next, then `rejected` says whether the rest fail
 *   (default) or are tried again (Standard Webhooks retries every answer but 410 and redirects).
 * The attempt log shows `<status> <what the body said>`; `said` reads the body (default: its
 * excerpt).
 */
import { excerpt } from "../../lib/excerpt.js";
import type { OutboundResponse } from "../../lib/outbound/outbound-http.js";
import type { DeliveryResult } from "../alerts/delivery-result.js";

export type Answered = Extract<OutboundResponse, { kind: "answered" }>;

export interface AnswerRules {
  said?: (body: string) => string;
  rateLimitWaitMs?: number | ((res: Answered) => number);
  ok?: (res: Answered) => DeliveryResult;
  /** `error` is `<status> <said>`; undefined leaves the answer to the common rules. */
  special?: (res: Answered, error: string) => DeliveryResult | undefined;
  rejected?: "failed" | "retry";
}

export function readHttpAnswer(res: OutboundResponse, rules: AnswerRules = {}): DeliveryResult {
  if (res.kind === "refused") return { outcome: "failed", statusCode: null, error: res.error };
  if (res.kind !== "answered") return { outcome: "retry", statusCode: null, error: res.error };
  if (res.verdict === "ok")
    return rules.ok?.(res) ?? { outcome: "delivered", statusCode: res.status, error: null };
  const error = `${res.status} ${(rules.said ?? excerpt)(res.body)}`.trim();
  if (res.status === 429 && rules.rateLimitWaitMs !== undefined) {
    const wait = rules.rateLimitWaitMs;
    const delayMs = res.retryAfterMs ?? (typeof wait === "number" ? wait : wait(res));
    return { outcome: "deferred", delayMs, error, statusCode: res.status };
  }
  if (res.verdict !== "retry") {
    const own = rules.special?.(res, error);
    if (own !== undefined) return own;
    if (rules.rejected !== "retry") return { outcome: "failed", statusCode: res.status, error };
  }
  return res.retryAfterMs === undefined
    ? { outcome: "retry", statusCode: res.status, error }
    : { outcome: "retry", statusCode: res.status, error, delayMs: res.retryAfterMs };
}
