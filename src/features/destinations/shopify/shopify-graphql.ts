/**
 * The Shopify customer mutations Velvet sends, and how their answers read. Shopify's GraphQL
 * Admin API answers 200 even for most failures: a THROTTLED error (the cost bucket is empty;
 * `extensions.cost.throttleStatus` says how fast it refills), ACCESS_DENIED (a missing scope),
 * or `userErrors` on a mutation (the customer does not exist, a bad metafield value).
 */
import { z } from "zod";
import type { DeliveryResult } from "../../alerts/delivery-result.js";

export const SCOPES_QUERY = "query Scopes { currentAppInstallation { accessScopes { handle } } }";

export const TAG_VIP = `mutation TagVip($id: ID!, $tags: [String!]!, $metafields: [MetafieldsSetInput!]!) {
  tagsAdd(id: $id, tags: $tags) { node { id } userErrors { field message } }
  metafieldsSet(metafields: $metafields) { metafields { id } userErrors { field message code } }
}`;

export const UNTAG = `mutation Untag($id: ID!, $tags: [String!]!, $metafields: [MetafieldIdentifierInput!]!) {
  tagsRemove(id: $id, tags: $tags) { node { id } userErrors { field message } }
  metafieldsDelete(metafields: $metafields) { deletedMetafields { key } userErrors { field message } }
}`;

export const METAFIELD = { namespace: "velvet", key: "vip_score" } as const;

/** A stored id (numeric, or already a gid) as the Customer gid mutations take. */
export function customerGid(id: string): string {
  return id.startsWith("gid://") ? id : `gid://shopify/Customer/${id}`;
}

const UserError = z.object({
  field: z.array(z.string()).nullable().optional(),
  message: z.string(),
});
const Answer = z.object({
  data: z
    .record(
      z.string(),
      z
        .object({ userErrors: z.array(UserError).optional() })
        .passthrough()
        .nullable(),
    )
    .nullable()
    .optional(),
  errors: z
    .array(
      z.object({
        message: z.string(),
        extensions: z.object({ code: z.string().optional() }).passthrough().optional(),
      }),
    )
    .optional(),
  extensions: z
    .object({
      cost: z
        .object({
          requestedQueryCost: z.number(),
          throttleStatus: z.object({ currentlyAvailable: z.number(), restoreRate: z.number() }),
        })
        .optional(),
    })
    .passthrough()
    .optional(),
});

/** A 200's body read as a delivery: done, throttled (wait), denied or refused (failed). */
export function readMutationAnswer(status: number, body: string): DeliveryResult {
  let answer: z.infer<typeof Answer>;
  try {
    answer = Answer.parse(JSON.parse(body));
  } catch {
    return { outcome: "retry", statusCode: status, error: "Shopify's answer was not readable" };
  }
  const errors = answer.errors ?? [];
  if (errors.some((e) => e.extensions?.code === "THROTTLED")) {
    const cost = answer.extensions?.cost;
    const missing = cost ? cost.requestedQueryCost - cost.throttleStatus.currentlyAvailable : 0;
    const delayMs = cost
      ? Math.ceil((Math.max(missing, 1) / cost.throttleStatus.restoreRate) * 1000)
      : 1000;
    return {
      outcome: "deferred",
      delayMs,
      error: "THROTTLED: Shopify's query cost bucket is empty",
      statusCode: status,
    };
  }
  if (errors.length > 0) {
    const text = errors.map((e) => `${e.extensions?.code ?? "error"}: ${e.message}`).join("; ");
    return { outcome: "failed", statusCode: status, error: text };
  }
  const userErrors = Object.entries(answer.data ?? {}).flatMap(([mutation, payload]) =>
    (payload?.userErrors ?? []).map((u) => `${mutation}: ${u.message}`),
  );
  if (userErrors.length > 0)
    return { outcome: "failed", statusCode: status, error: userErrors.join("; ") };
  return { outcome: "delivered", statusCode: status, error: null };
}
