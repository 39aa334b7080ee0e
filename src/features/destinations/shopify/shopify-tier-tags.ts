/**
 * Tiers on Shopify: a customer carries one tag for their tier, `Velvet tier: Gold` (the prefix
 * marks the tag as Velvet's, so removing it never touches a tag of the merchant's own). A VIP's
 * delivery adds their tier's tag and removes the tags of the account's other tiers in the same
 * request, so a customer whose tier changed loses the old one; both are sets, so a retried
 * delivery changes nothing more. Forgetting someone removes every tier tag with the VIP tag.
 * Tiers renamed or removed in settings are no longer known by name: their tags stay where they
 * were put.
 */
import type { Tier } from "../../customers/tiers.js";

export const TIER_TAG_PREFIX = "Velvet tier: ";

export function tierTag(name: string): string {
  return `${TIER_TAG_PREFIX}${name}`;
}

/** `tagsRemove` before `tagsAdd` (Shopify runs a request's mutations in order). */
export const TAG_VIP_AND_TIER = `mutation TagVipAndTier($id: ID!, $tags: [String!]!, $untags: [String!]!, $metafields: [MetafieldsSetInput!]!) {
  tagsRemove(id: $id, tags: $untags) { node { id } userErrors { field message } }
  tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } }
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
}`;

/** The tags a VIP delivery adds and removes, given their tier and the account's tiers. */
export function tierTagChanges(
  tier: string | null,
  tiers: readonly Tier[],
): { add: string[]; remove: string[] } {
  return {
    add: tier === null ? [] : [tierTag(tier)],
    remove: tiers.filter((t) => t.name !== tier).map((t) => tierTag(t.name)),
  };
}
