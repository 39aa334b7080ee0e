/**
 * The Klaviyo destination, with a private API key (`Authorization: Klaviyo-API-Key pk_…`), the
 * dated `revision` header (KLAVIYO_REVISION; its lifecycle in klaviyo-revision.ts) and JSON:API
 * bodies (klaviyo-profile.ts), through the process's outbound client:
 * - `customer.enriched` → POST /api/profile-import: Velvet's properties on the profile found
 *   or created by e-mail (`profiles:write`);
 * - `customer.forgotten` → at the person's request a deletion job; for any other reason, or
 *   without `data-privacy:write`, Velvet's properties unset on an existing profile
 *   (klaviyo-forget.ts);
 * - "Send a test" → GET /api/profiles (one, its e-mail only: `profiles:read`, which a key with
 *   Profiles full access has), so a key scoped as the docs say passes.
 * Answers are read in klaviyo-answer.ts.
 */
import { AppError } from "../../../lib/app-error.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import { CustomerEventBody } from "../customer-event-body.js";
import type { DestinationDeclaration } from "../destination-declaration.js";
import type { DestinationDriver } from "../destination-driver.js";
import { readAnswer } from "./klaviyo-answer.js";
import { forgetInKlaviyo } from "./klaviyo-forget.js";
import { profileImport } from "./klaviyo-profile.js";

/** The kind's name among those `destinations.kind` stores (db/schema.ts, DestinationKindNames). */
declare module "../../../db/schema.js" {
  interface DestinationKindNames {
    klaviyo: true;
  }
}

export const KLAVIYO_DESTINATION = {
  kind: "klaviyo",
  label: "Klaviyo",
  summary: "set Velvet's properties (VIP, score, reasons) on each customer's Klaviyo profile",
  events: ["customer.enriched", "customer.forgotten"],
  // Klaviyo's API host (https://developers.klaviyo.com/en/reference/api_overview).
  baseUrl: { env: "KLAVIYO_BASE_URL", default: "https://a.klaviyo.com" },
  fields: [
    {
      name: "apiKey",
      label: "Private API key",
      type: "secret",
      placeholder: "pk_…",
      formHelp: "Stored encrypted; only its last 4 characters are shown again.",
      cliValue: "<key>",
      cliHelp:
        "a Klaviyo private API key (pk_…) with Profiles full access (and Data Privacy, to delete the profile of a person who asks to be erased)",
    },
  ],
  form: {
    title: "Add Klaviyo",
    intro:
      "Each enrichment sets `velvet_vip`, `velvet_score` and `velvet_reasons` on the customer's Klaviyo profile (found or created by e-mail), for your segments and flows; Velvet writes nothing else there. A person's own erasure request deletes their Klaviyo profile; when Velvet's retention or the closing of your Velvet account forgets them, the profile stays and only Velvet's properties are removed. In Klaviyo: Settings › API keys › Create Private API Key, a custom key with **Profiles: Full access** and **Data Privacy: Full access** (without it, an erasure request too only removes Velvet's properties from the profile).",
    submit: "Add Klaviyo",
    chooseEvents: false,
  },
} as const satisfies DestinationDeclaration;

export function klaviyoDriver(options: { baseUrl: string; revision: string }): DestinationDriver {
  return {
    ...KLAVIYO_DESTINATION,
    // Klaviyo hears of a forgotten person only when it heard of them before: the merchant's own
    // profiles of people Velvet never sent are not Velvet's to delete.
    forgetsOnlyWhatItWasSent: true,
    async prepare(_deps, _accountId, input, events) {
      const apiKey = (input.apiKey ?? "").trim();
      if (!/^pk_[A-Za-z0-9]{20,}$/.test(apiKey)) {
        throw new AppError(
          "bad_request",
          "Cannot add Klaviyo: give a private API key (pk_…) with Profiles full access (profiles:read and profiles:write), and Data Privacy full access (data-privacy:write) to delete the profile of a person who asks to be erased",
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
        revision: options.revision,
        accept: "application/vnd.api+json",
        "content-type": "application/vnd.api+json",
      };
      const { baseUrl, revision } = options;
      if (delivery.test) {
        const query = new URLSearchParams({ "page[size]": "1", "fields[profile]": "email" });
        const res = await deps.http.send(
          { url: `${baseUrl}/api/profiles?${query}`, method: "GET", headers },
          signal,
        );
        return readAnswer(res, revision);
      }
      const event = CustomerEventBody.parse(JSON.parse(delivery.body));
      if (event.type === "customer.forgotten")
        return forgetInKlaviyo(
          deps,
          { baseUrl, revision, headers },
          { email: event.data.customer.email, reason: event.data.reason },
          signal,
        );
      const res = await deps.http.send(
        {
          url: `${baseUrl}/api/profile-import`,
          method: "POST",
          headers,
          body: JSON.stringify(profileImport(event)),
        },
        signal,
      );
      return readAnswer(res, revision);
    },
  };
}
