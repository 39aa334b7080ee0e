/**
 * Shopify's Admin API version lifecycle (https://shopify.dev/docs/api/usage/versioning): a
 * version is released each quarter (January, April, July, October) and supported for at least
 * 12 months; a request for a version no longer supported is answered by the oldest supported
 * version instead ("falls forward"), whose fields may differ. Velvet warns from 9 months, when
 * the version has at most one more quarter of support.
 */
import type { VersionPolicy } from "../../lib/api-version-lifecycle.js";

export const SHOPIFY_API_VERSION_POLICY: VersionPolicy = {
  platform: "Shopify",
  setting: "SHOPIFY_API_VERSION",
  noun: "Admin API version",
  warnAfterMonths: 9,
  endsAfterMonths: 12,
  afterEnd:
    "Shopify answers with its oldest supported version instead, whose fields may differ from what Velvet asks for",
};
