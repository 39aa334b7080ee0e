/**
 * Shopify's order webhooks for one connection, over the shop's Admin GraphQL API (the token, its
 * renewal, the cost throttle and Shopify's refusals: store-sync/shopify-graphql.ts). API
 * version 2026-10 (https://shopify.dev/docs/api/admin-graphql/2026-10/mutations/webhookSubscriptionCreate):
 * - `webhookSubscriptionCreate(topic, webhookSubscription: {uri, format: JSON})`. The address is
 *   `uri`: `callbackUrl` is deprecated since the webhook surfaces were consolidated
 *   (https://shopify.dev/changelog/consolidate-webhook-graphql-surfaces; WebhookSubscriptionInput
 *   in 2026-10 lists `uri` and `callbackUrl` as deprecated).
 * - `webhookSubscriptions(uri:)` lists the app's subscriptions at one address (the same
 *   changelog: the query filters by `uri`); it holds only subscriptions made through the API
 *   for this shop, not those an app declares in its shopify.app.toml.
 * - `webhookSubscriptionDelete(id:)`.
 * Failures that are the app's setup come as `userErrors`, not GraphQL errors:
 * - the address already subscribed to the topic: "Address for this topic has already been taken"
 *   (Shopify's words since the REST webhooks, github.com/Shopify/shopify_app/issues/263): it is
 *   what subscribe() wanted, not an error;
 * - an order topic without the `read_orders` scope: "Invalid topic specified: … Is there a
 *   missing access scope?" (https://community.shopify.com/c/webhooks-and-events/graphql-api-creating-webhook-with-topic-variants-out-of-stock/td-p/1488711;
 *   the order topics require read_orders: https://shopify.dev/docs/api/admin-graphql/2026-10/enums/WebhookSubscriptionTopic);
 * - an app not approved for protected customer data: "This app is not approved to subscribe to
 *   webhook topics containing protected customer data"
 *   (github.com/kinngh/shopify-node-express-mongodb-app/issues/84).
 * Shopify subscriptions have no paused state: one that keeps failing is deleted by Shopify
 * (https://shopify.dev/docs/apps/build/webhooks/subscribe/https), so every listed one is active.
 */
import { z } from "zod";
import type { ShopifyCredentials } from "../store-sync/credentials.js";
import { PlatformError, type PlatformHttp } from "../store-sync/platform-http.js";
import { createShopifyGraphql } from "../store-sync/shopify-graphql.js";
import type { ShopifyAccess } from "../store-sync/shopify-shop.js";
import { withWaits } from "../store-sync/wait-politely.js";
import type { PlatformWebhooks, WebhookSubscription } from "./platform-webhooks.js";

/** The order topics Velvet subscribes: a new order, any change, a cancellation. */
export const SHOPIFY_ORDER_TOPICS = ["ORDERS_CREATE", "ORDERS_UPDATED", "ORDERS_CANCELLED"];

export const WEBHOOKS_QUERY = `query VelvetWebhooks($uri: String!, $after: String) {
  webhookSubscriptions(first: 100, after: $after, uri: $uri) {
    nodes { id topic uri }
    pageInfo { hasNextPage endCursor }
  }
}`;

export const WEBHOOK_CREATE = `mutation VelvetWebhookCreate($topic: WebhookSubscriptionTopic!, $webhookSubscription: WebhookSubscriptionInput!) {
  webhookSubscriptionCreate(topic: $topic, webhookSubscription: $webhookSubscription) {
    webhookSubscription { id topic uri }
    userErrors { field message }
  }
}`;

export const WEBHOOK_DELETE = `mutation VelvetWebhookDelete($id: ID!) {
  webhookSubscriptionDelete(id: $id) {
    deletedWebhookSubscriptionId
    userErrors { field message }
  }
}`;

const Node = z.object({ id: z.string(), topic: z.string(), uri: z.string() });
const UserErrors = z.array(z.object({ field: z.array(z.string()).nullish(), message: z.string() }));
const Listed = z.object({
  webhookSubscriptions: z.object({
    nodes: z.array(Node),
    pageInfo: z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullish() }),
  }),
});
const Created = z.object({
  webhookSubscriptionCreate: z.object({
    webhookSubscription: Node.nullish(),
    userErrors: UserErrors,
  }),
});
const Deleted = z.object({
  webhookSubscriptionDelete: z.object({
    deletedWebhookSubscriptionId: z.string().nullish(),
    userErrors: UserErrors,
  }),
});

const ALREADY_TAKEN = /already been taken/i;
const MISSING_SCOPE = /invalid topic|access scope/i;
const PROTECTED_DATA = /protected customer data/i;
const GONE = /does not exist|not found|could not find/i;

export function createShopifyWebhooks(
  http: PlatformHttp,
  shop: string,
  credentials: ShopifyCredentials,
  access: ShopifyAccess,
  onCredentials?: (credentials: ShopifyCredentials) => void | Promise<void>,
): PlatformWebhooks {
  const { query } = createShopifyGraphql(http, shop, credentials, access, onCredentials);
  const ask = <T>(
    text: string,
    variables: Record<string, unknown>,
    schema: z.ZodType<T>,
    signal: AbortSignal,
  ) => withWaits(() => query(text, variables, schema, signal), signal);

  async function list(address: string, signal: AbortSignal): Promise<WebhookSubscription[]> {
    const found: WebhookSubscription[] = [];
    let after: string | null = null;
    for (;;) {
      const { webhookSubscriptions: page }: z.infer<typeof Listed> = await ask(
        WEBHOOKS_QUERY,
        { uri: address, after },
        Listed,
        signal,
      );
      for (const node of page.nodes) {
        // The filter is Shopify's; the check is ours, so a wider answer never counts as ours.
        if (node.uri === address) found.push(toSubscription(node));
      }
      if (!page.pageInfo.hasNextPage || !page.pageInfo.endCursor) return found;
      after = page.pageInfo.endCursor;
    }
  }

  async function create(topic: string, address: string, signal: AbortSignal): Promise<void> {
    const variables = { topic, webhookSubscription: { uri: address, format: "JSON" } };
    const { webhookSubscriptionCreate: answer } = await ask(
      WEBHOOK_CREATE,
      variables,
      Created,
      signal,
    );
    const refused = answer.userErrors.filter((e) => !ALREADY_TAKEN.test(e.message));
    if (refused.length > 0) throw subscribeRefused(topic, refused[0]?.message ?? "");
  }

  return {
    list,
    async subscribe(address, _secret, signal) {
      // Shopify signs with the app's client secret (or a legacy custom app's API secret key):
      // there is no per-subscription secret to give.
      const held = await list(address, signal);
      const missing = SHOPIFY_ORDER_TOPICS.filter((t) => !held.some((s) => s.topic === t));
      if (missing.length === 0) return held;
      for (const topic of missing) await create(topic, address, signal);
      return list(address, signal);
    },
    async remove(ids, signal) {
      for (const id of ids) {
        const { webhookSubscriptionDelete: answer } = await ask(
          WEBHOOK_DELETE,
          { id },
          Deleted,
          signal,
        );
        const refused = answer.userErrors.filter((e) => !GONE.test(e.message));
        if (refused.length > 0) {
          throw new PlatformError({
            kind: "broken",
            message: `Shopify refused to delete the webhook subscription ${id} (${refused[0]?.message})`,
          });
        }
      }
    },
  };
}

function toSubscription(node: z.infer<typeof Node>): WebhookSubscription {
  return { id: node.id, topic: node.topic, address: node.uri, active: true };
}

function subscribeRefused(topic: string, said: string): PlatformError {
  if (PROTECTED_DATA.test(said)) {
    return new PlatformError({
      kind: "broken",
      message: `Shopify refused the ${topic} webhook because the app has no access to protected customer data (${said}). In the Dev Dashboard, request access to protected customer data for the app (the name, email, phone and address fields), then reconnect`,
    });
  }
  if (MISSING_SCOPE.test(said)) {
    return new PlatformError({
      kind: "broken",
      message: `Shopify refused the ${topic} webhook: the app lacks the read_orders scope (${said.split(" Topics allowed:")[0]}). Give the app the read_orders scope (in the Dev Dashboard: a new version installed on the shop; for an app made in the Shopify admin: its Admin API scopes), then reconnect`,
    });
  }
  return new PlatformError({
    kind: "broken",
    message: `Shopify refused the ${topic} webhook (${said})`,
  });
}
