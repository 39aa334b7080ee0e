/**
 * What Velvet sends Klaviyo, as JSON:API bodies: its own properties, prefixed `velvet_`, on the
 * profile found or created by e-mail (POST /api/profile-import), and nothing else: the name and
 * every other attribute are the merchant's and never written. Forgetting a person at their
 * request is a deletion job (POST /api/data-privacy-deletion-jobs); for any other reason, or for
 * a key without `data-privacy:write`, it is an update of the existing profile that unsets
 * Velvet's properties (PATCH /api/profiles/{id}, `meta.patch_properties.unset`), never an
 * import, which would create the profile again.
 */
import { z } from "zod";
import type { CustomerEventBody } from "../customer-event-body.js";

export const VELVET_PROPERTIES = [
  "velvet_vip",
  "velvet_score",
  "velvet_threshold",
  "velvet_tier",
  "velvet_reasons",
  "velvet_historical",
  "velvet_scored_at",
] as const;

/** "Seniority: c_level (+25)", one line per reason: Klaviyo properties are flat values. */
function reasonLines(reasons: NonNullable<CustomerEventBody["data"]["reasons"]>): string {
  return reasons
    .map((r) => `${r.label}${r.value === null ? "" : `: ${r.value}`} (+${r.points})`)
    .join("; ");
}

/** A JSON:API `profile` for POST /api/profile-import: Velvet's properties, upserted by e-mail. */
export function profileImport(event: CustomerEventBody) {
  return {
    data: {
      type: "profile",
      attributes: {
        email: event.data.customer.email,
        properties: {
          velvet_vip: event.data.vip ?? false,
          velvet_score: event.data.score ?? null,
          velvet_threshold: event.data.threshold ?? null,
          velvet_tier: event.data.tier ?? null,
          velvet_reasons: reasonLines(event.data.reasons ?? []),
          velvet_historical: event.data.historical ?? false,
          velvet_scored_at: event.timestamp,
        },
      },
    },
  };
}

/** POST /api/data-privacy-deletion-jobs: delete every profile with this e-mail. */
export function deletionJob(email: string) {
  return {
    data: {
      type: "data-privacy-deletion-job",
      attributes: { profile: { data: { type: "profile", attributes: { email } } } },
    },
  };
}

/** PATCH /api/profiles/{id}: unset Velvet's properties, touching nothing else. */
export function unsetVelvetProperties(profileId: string) {
  return {
    data: {
      type: "profile",
      id: profileId,
      attributes: {},
      meta: { patch_properties: { unset: [...VELVET_PROPERTIES] } },
    },
  };
}

/** `filter` of GET /api/profiles for one e-mail (Klaviyo's filter syntax: strings in quotes). */
export function emailFilter(email: string): string {
  return `equals(email,"${email.replace(/["\\]/g, (c) => `\\${c}`)}")`;
}

/** The profiles GET /api/profiles answered: their ids (an empty list when none matched). */
export const ProfileList = z.object({ data: z.array(z.object({ id: z.string() })) });
