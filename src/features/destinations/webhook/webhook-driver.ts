/**
 * The signed-webhook destination: each delivery is POSTed as JSON `{type, timestamp, data}` to
 * the receiver's URL, signed as Standard Webhooks says (sign-webhook.ts), through the process's
 * outbound client (guarded: no private address unless WEBHOOKS_ALLOW_PRIVATE, no redirect, a
 * timeout, a capped answer).
 *
 * Answers, as the Standard Webhooks spec reads them ("Delivery success and failure",
 * https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md):
 * any 2xx is delivered; a 3xx is failed at once, not retried (redirects are not followed: the
 * URL is wrong and must be updated, which no retry fixes); 410 Gone means the receiver wants no
 * more, so the delivery fails and the destination is disabled (`gone`); any other answer, a
 * timeout or a network error is tried again later under the same webhook-id (a 429's or 503's
 * Retry-After is honoured); an address the guard refuses is failed.
 */
import { AppError } from "../../../lib/app-error.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import { checkWebhookUrl } from "../../alerts/webhook-url.js";
import type { DestinationDeclaration } from "../destination-declaration.js";
import type { DestinationDriver } from "../destination-driver.js";
import { DESTINATION_EVENTS } from "../destination-events.js";
import { type AnswerRules, readHttpAnswer } from "../read-http-answer.js";
import { newWebhookSecret, signedHeaders } from "./sign-webhook.js";

/**
 * How long a receiver has to answer. The spec recommends 15 to 30 s so that consumers have time
 * to process and acknowledge; 20 s gives a slow receiver that time while a hung one still frees
 * the worker slot well inside the job's lease (JOB_LEASE_MS, 60 s by default), so the same
 * delivery is never sent twice at once by a second worker.
 */
export const WEBHOOK_TIMEOUT_MS = 20_000;

/** Every answer but 2xx, 410 and a redirect is tried again (the spec, above). */
const WEBHOOK_ANSWERS: AnswerRules = {
  rejected: "retry",
  special: (res, error) => {
    if (res.status === 410) return { outcome: "failed", statusCode: res.status, error, gone: true };
    if (res.verdict === "redirect") {
      const why = `${error}: redirects are not followed; set the receiver's final URL`;
      return { outcome: "failed", statusCode: res.status, error: why };
    }
    return undefined;
  },
};

/** The kind's name among those `destinations.kind` stores (db/schema.ts, DestinationKindNames). */
declare module "../../../db/schema.js" {
  interface DestinationKindNames {
    webhook: true;
  }
}

export const WEBHOOK_DESTINATION = {
  kind: "webhook",
  label: "Signed webhook",
  summary: "POST each event, signed as Standard Webhooks says, to a URL",
  events: DESTINATION_EVENTS,
  fields: [
    {
      name: "url",
      label: "Receiver URL",
      type: "url",
      placeholder: "https://example.com/hooks/velvet",
      cliValue: "<url>",
      cliHelp: "the receiver's https URL",
    },
  ],
  form: {
    title: "Add a signed webhook",
    intro:
      "Each event is POSTed as JSON `{type, timestamp, data}` and signed as the Standard Webhooks specification says (`webhook-id`, `webhook-timestamp`, `webhook-signature`): verify it with any Standard Webhooks library. A failed delivery is tried again for up to 3 days under the same `webhook-id`; a redirect fails at once (give the final URL), and a `410 Gone` disables the webhook until you enable it again.",
    submit: "Add webhook",
    chooseEvents: true,
  },
  reveals: {
    name: "secret",
    label: "Signing secret",
    keep: "keep it with your receiver",
    targetName: "url",
  },
} as const satisfies DestinationDeclaration;

export function webhookDriver(options: { allowPrivate: boolean }): DestinationDriver {
  return {
    ...WEBHOOK_DESTINATION,
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
          timeoutMs: WEBHOOK_TIMEOUT_MS,
        },
        signal,
      );
      return readHttpAnswer(res, WEBHOOK_ANSWERS);
    },
  };
}
