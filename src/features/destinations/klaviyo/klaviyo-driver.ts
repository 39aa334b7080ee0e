/**
 * The Klaviyo destination: each customer event becomes `POST /api/profile-import` (create or
 * update a profile by e-mail) with a private API key (`Authorization: Klaviyo-API-Key pk_…`),
 * a dated `revision` header and a JSON:API body (klaviyo-profile.ts), through the process's
 * outbound client. A forgotten person's Velvet properties are unset; the profile stays.
 *
 * Answers: 200/201 delivered; 429 (Klaviyo's burst and steady limits) waits for Retry-After
 * without spending an attempt; 5xx and network failures are retried; 400 (its JSON:API
 * `errors[].detail` kept), 401 and 403 (a revoked key or one without `profiles:write`) fail.
 */
import { AppError } from "../../../lib/app-error.js";
import { excerpt } from "../../../lib/excerpt.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import type { DestinationDriver } from "../destination-driver.js";
import { CustomerEventBody, profileImport } from "./klaviyo-profile.js";

/** The API revision Velvet's requests are written against (Klaviyo dates its versions). */
export const KLAVIYO_REVISION = "2024-10-15";
const DEFAULT_WAIT_MS = 1_000;

export function klaviyoDriver(options: { baseUrl: string }): DestinationDriver {
  return {
    kind: "klaviyo",
    events: ["customer.enriched", "customer.forgotten"],
    forgetsOnlyWhatItWasSent: true,
    async prepare(_deps, _accountId, input, events) {
      const apiKey = (input.apiKey ?? "").trim();
      if (!/^pk_[A-Za-z0-9]{20,}$/.test(apiKey)) {
        throw new AppError(
          "bad_request",
          "Cannot add Klaviyo: give a private API key (pk_…) with the profiles:write scope",
        );
      }
      return {
        target: `Klaviyo (key …${apiKey.slice(-4)})`,
        settings: {},
        secret: apiKey,
        events: events ?? ["customer.enriched", "customer.forgotten"],
      };
    },
    async send(deps, destination, delivery, signal): Promise<DeliveryResult> {
      if (destination.secret === null)
        return { outcome: "failed", statusCode: null, error: "the destination has no API key" };
      const headers = {
        authorization: `Klaviyo-API-Key ${destination.secret}`,
        revision: KLAVIYO_REVISION,
        accept: "application/vnd.api+json",
        "content-type": "application/vnd.api+json",
      };
      const request = delivery.test
        ? { url: `${options.baseUrl}/api/accounts`, method: "GET" as const, headers }
        : {
            url: `${options.baseUrl}/api/profile-import`,
            method: "POST" as const,
            headers,
            body: JSON.stringify(profileImport(CustomerEventBody.parse(JSON.parse(delivery.body)))),
          };
      const res = await deps.http.send(request, signal);
      if (res.kind === "refused") return { outcome: "failed", statusCode: null, error: res.error };
      if (res.kind !== "answered") return { outcome: "retry", statusCode: null, error: res.error };
      if (res.verdict === "ok")
        return { outcome: "delivered", statusCode: res.status, error: null };
      const error = `${res.status} ${jsonApiError(res.body)}`.trim();
      if (res.status === 429) {
        const delayMs = res.retryAfterMs ?? DEFAULT_WAIT_MS;
        return { outcome: "deferred", delayMs, error, statusCode: res.status };
      }
      if (res.verdict === "retry") {
        return res.retryAfterMs === undefined
          ? { outcome: "retry", statusCode: res.status, error }
          : { outcome: "retry", statusCode: res.status, error, delayMs: res.retryAfterMs };
      }
      return { outcome: "failed", statusCode: res.status, error };
    },
  };
}

/** Klaviyo's JSON:API `errors`: each one's code and detail (or title), else the body's excerpt. */
function jsonApiError(body: string): string {
  try {
    const parsed = JSON.parse(body) as {
      errors?: { code?: string; detail?: string; title?: string }[];
    };
    const errors = parsed.errors ?? [];
    if (errors.length > 0)
      return excerpt(
        errors.map((e) => `${e.code ?? "error"}: ${e.detail ?? e.title ?? ""}`).join("; "),
      );
  } catch {
    // Not JSON: the excerpt below.
  }
  return excerpt(body);
}
