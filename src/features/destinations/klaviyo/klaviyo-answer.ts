/**
 * How Klaviyo's answers read as a delivery result. 2xx delivered; 429 (its burst and steady
 * limits) waits for Retry-After without spending an attempt; 5xx and network failures retry;
 * any other 4xx fails with Klaviyo's own JSON:API `errors[].detail`: 401 (a revoked key), 403
 * (a key without the scope, named in the detail), 400 and 410 for a revision Klaviyo does not
 * serve, said with the setting that picks it (KLAVIYO_REVISION).
 */
import { excerpt } from "../../../lib/excerpt.js";
import type { OutboundResponse } from "../../../lib/outbound/outbound-http.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import { readHttpAnswer } from "../read-http-answer.js";

const DEFAULT_WAIT_MS = 1_000;

export function readAnswer(res: OutboundResponse, revision: string): DeliveryResult {
  return readHttpAnswer(res, {
    said: (body) => jsonApiError(body).text,
    rateLimitWaitMs: DEFAULT_WAIT_MS,
    special: (answered, error) => {
      if (
        answered.status !== 410 &&
        !jsonApiError(answered.body).codes.includes("invalid_revision")
      )
        return undefined;
      const why = answered.status === 410 ? "no longer serves" : "does not accept";
      return {
        outcome: "failed",
        statusCode: answered.status,
        error: `${error} (Klaviyo ${why} API revision ${revision}: set KLAVIYO_REVISION to Klaviyo's current revision)`,
      };
    },
  });
}

/** Klaviyo's JSON:API `errors`: each one's code and detail (or title), else the body's excerpt. */
export function jsonApiError(body: string): { text: string; codes: string[] } {
  try {
    const parsed = JSON.parse(body) as {
      errors?: { code?: string; detail?: string; title?: string }[];
    };
    const errors = parsed.errors ?? [];
    if (errors.length > 0)
      return {
        text: excerpt(
          errors.map((e) => `${e.code ?? "error"}: ${e.detail ?? e.title ?? ""}`).join("; "),
        ),
        codes: errors.map((e) => e.code ?? ""),
      };
  } catch {
    // Not JSON: the excerpt below.
  }
  return { text: excerpt(body), codes: [] };
}
