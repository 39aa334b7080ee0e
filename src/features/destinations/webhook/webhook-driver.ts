/**
 * The signed-webhook destination: each delivery is POSTed as JSON `{type, timestamp, data}` to
 * the receiver's URL, signed as Standard Webhooks says (sign-webhook.ts), through the process's
 * outbound client (guarded: no private address unless WEBHOOKS_ALLOW_PRIVATE, no redirect, a
 * timeout, a capped answer).
 *
 * Answers, as Standard Webhooks senders read them: any 2xx is delivered; 410 Gone means the
 * receiver is gone for good (failed); any other answer, a timeout or a network error is tried
 * again later under the same webhook-id (a 429's or 503's Retry-After is honoured); an address
 * the guard refuses is failed.
 */
import { AppError } from "../../../lib/app-error.js";
import { excerpt } from "../../../lib/excerpt.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import { checkWebhookUrl } from "../../alerts/webhook-url.js";
import type { DestinationDriver } from "../destination-driver.js";
import { DESTINATION_EVENTS } from "../destination-events.js";
import { newWebhookSecret, signedHeaders } from "./sign-webhook.js";

export function webhookDriver(options: { allowPrivate: boolean }): DestinationDriver {
  return {
    kind: "webhook",
    events: DESTINATION_EVENTS,
    async prepare(_deps, _accountId, input, events) {
      const checked = checkWebhookUrl(input.url ?? "", { allowPrivate: options.allowPrivate });
      if (!checked.ok)
        throw new AppError("bad_request", `Cannot add the webhook: ${checked.reason}`);
      const secret = newWebhookSecret();
      return {
        target: checked.url,
        settings: { url: checked.url },
        secret,
        events: events ?? [...DESTINATION_EVENTS],
        revealOnce: { secret },
      };
    },
    async send(deps, destination, delivery, signal): Promise<DeliveryResult> {
      const url = String(destination.settings.url ?? "");
      const checked = checkWebhookUrl(url, { allowPrivate: options.allowPrivate });
      if (!checked.ok) return { outcome: "failed", statusCode: null, error: checked.reason };
      if (destination.secret === null)
        return { outcome: "failed", statusCode: null, error: "the webhook has no signing secret" };
      const res = await deps.http.send(
        {
          url: checked.url,
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...signedHeaders(destination.secret, delivery.id, deps.clock.now(), delivery.body),
          },
          body: delivery.body,
        },
        signal,
      );
      if (res.kind === "refused") return { outcome: "failed", statusCode: null, error: res.error };
      if (res.kind !== "answered") return { outcome: "retry", statusCode: null, error: res.error };
      const answer = `${res.status} ${excerpt(res.body)}`.trim();
      if (res.verdict === "ok")
        return { outcome: "delivered", statusCode: res.status, error: null };
      if (res.status === 410) return { outcome: "failed", statusCode: res.status, error: answer };
      const error = res.verdict === "redirect" ? `${answer}: redirects are not followed` : answer;
      return res.retryAfterMs === undefined
        ? { outcome: "retry", statusCode: res.status, error }
        : { outcome: "retry", statusCode: res.status, error, delayMs: res.retryAfterMs };
    },
  };
}
