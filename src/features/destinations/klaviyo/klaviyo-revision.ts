/**
 * Klaviyo's revision lifecycle (https://developers.klaviyo.com/en/docs/api_versioning_and_deprecation_policy):
 * a revision is stable for a year after its date, deprecated for a second year, then retired,
 * when a request for it is answered 410 Gone. Velvet warns from the day it is deprecated.
 */
import type { VersionPolicy } from "../../../lib/api-version-lifecycle.js";

export const KLAVIYO_REVISION_POLICY: VersionPolicy = {
  platform: "Klaviyo",
  setting: "KLAVIYO_REVISION",
  noun: "API revision",
  warnAfterMonths: 12,
  endsAfterMonths: 24,
  afterEnd: "Klaviyo answers every request with 410 Gone and no delivery reaches it",
};
