/**
 * The dated platform APIs this process speaks (Klaviyo's revision, Shopify's Admin API version)
 * and where each stands today: warned of in the log when `velvet serve` or `velvet worker`
 * starts, and on the dashboard's Destinations page while it lasts.
 */
import type { Logger } from "pino";
import type { Config } from "../../config.js";
import { type VersionStanding, versionStanding } from "../../lib/api-version-lifecycle.js";
import { SHOPIFY_API_VERSION_POLICY } from "../store-sync/shopify-api-version.js";
import { KLAVIYO_REVISION_POLICY } from "./klaviyo/klaviyo-revision.js";

export function apiVersionStandings(
  config: Pick<Config, "destinations" | "storeSync">,
  now: number,
): VersionStanding[] {
  return [
    versionStanding(KLAVIYO_REVISION_POLICY, config.destinations.klaviyoRevision, now),
    versionStanding(SHOPIFY_API_VERSION_POLICY, config.storeSync.shopifyApiVersion, now),
  ];
}

/** One warning line per version past its warning age (an error once the platform dropped it). */
export function warnOfAgeingApiVersions(
  config: Pick<Config, "destinations" | "storeSync">,
  now: number,
  log: Pick<Logger, "warn" | "error">,
): VersionStanding[] {
  const ageing = apiVersionStandings(config, now).filter((s) => s.warning !== null);
  for (const s of ageing) {
    const fields = {
      platform: s.platform,
      setting: s.setting,
      version: s.version,
      endsAt: new Date(s.endsAt).toISOString(),
    };
    if (s.stage === "ended") log.error(fields, s.warning ?? "");
    else log.warn(fields, s.warning ?? "");
  }
  return ageing;
}
