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

const DEFAULT_WAIT_MS = 1_000;

export function readAnswer(res: OutboundResponse, revision: string): DeliveryResult {
  if (res.kind === "refused") return { outcome: "failed", statusCode: null, error: res.error };
  if (res.kind !== "answered") return { outcome: "retry", statusCode: null, error: res.error };
  if (res.verdict === "ok") return { outcome: "delivered", statusCode: res.status, error: null };
  const said = jsonApiError(res.body);
  const error = `${res.status} ${said.text}`.trim();
  if (res.status === 429) {
    const delayMs = res.retryAfterMs ?? DEFAULT_WAIT_MS;
    return { outcome: "deferred", delayMs, error, statusCode: res.status };
  }
  if (res.verdict === "retry") {
    return res.retryAfterMs === undefined
      ? { outcome: "retry", statusCode: res.status, error }
      : { outcome: "retry", statusCode: res.status, error, delayMs: res.retryAfterMs };
  }
  if (res.status === 410 || said.codes.includes("invalid_revision")) {
    const why = res.status === 410 ? "no longer serves" : "does not accept";
    return {
      outcome: "failed",
      statusCode: res.status,
      error: `${error} (Klaviyo ${why} API revision ${revision}: set KLAVIYO_REVISION to Klaviyo's current revision)`,
    };
  }
  return { outcome: "failed", statusCode: res.status, error };
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
