/**
 * The webhook subscriptions of a fake Shopify (shopify-admin.ts), over its Admin GraphQL API, as
 * API version 2026-10 answers them:
 * - `webhookSubscriptionCreate(topic, webhookSubscription: {uri, format})` → `{webhookSubscription
 *   {id topic uri …}, userErrors {field message}}`; the id is a
 *   `gid://shopify/WebhookSubscription/<n>` GID. `uri` is the address (`callbackUrl`, deprecated,
 *   still read): https://shopify.dev/changelog/consolidate-webhook-graphql-surfaces.
 * - The same topic at the same address again: a userError "Address for this topic has already
 *   been taken" and no subscription (github.com/Shopify/shopify_app/issues/263).
 * - An order topic without `read_orders`: a userError "Invalid topic specified: … Is there a
 *   missing access scope?" (https://community.shopify.com/c/webhooks-and-events/graphql-api-creating-webhook-with-topic-variants-out-of-stock/td-p/1488711);
 *   without protected customer data access: "This app is not approved to subscribe to webhook
 *   topics containing protected customer data" (github.com/kinngh/shopify-node-express-mongodb-app/issues/84).
 * - The address must be HTTPS (WebhookSubscriptionInput.uri: "an HTTPS URL"); the fake also
 *   takes http:// on loopback, where tests listen.
 * - `webhookSubscriptions(first, after, uri)` lists this app's subscriptions, filtered by `uri`.
 * - `webhookSubscriptionDelete(id)` → `{deletedWebhookSubscriptionId, userErrors}`; an unknown id
 *   is a userError.
 * Each subscription remembers which secret signs its deliveries: the app's client secret when it
 * was made with a client-credentials token, the legacy custom app's API secret key when made
 * with its fixed `shpat_` token. That secret stands for the app: subscriptions are the app's
 * own, other apps neither see nor delete them
 * (https://shopify.dev/docs/api/admin-rest/latest/resources/webhook, "Considerations").
 */

/** GraphQL topic → the REST name deliveries carry in X-Shopify-Topic. */
export const TOPIC_NAMES: Record<string, string> = {
  ORDERS_CREATE: "orders/create",
  ORDERS_UPDATED: "orders/updated",
  ORDERS_CANCELLED: "orders/cancelled",
};

export interface FakeWebhookSubscription {
  id: string;
  topic: string;
  uri: string;
  format: string;
  /** The Admin API version that serializes its payloads: the one that created it. */
  apiVersion: string;
  /** The key of X-Shopify-Hmac-Sha256 for its deliveries. */
  signWith: string;
  createdAt: string;
}

export interface SubscriptionContext {
  scopes: string[];
  protectedCustomerData: boolean;
  apiVersion: string;
  signWith: string;
}

type UserError = { field: string[] | null; message: string };

let sequence = 1_100_000;

function pick(node: FakeWebhookSubscription, query: string) {
  const shown = { ...node, callbackUrl: node.uri, legacyResourceId: node.id.split("/").at(-1) };
  return Object.fromEntries(
    Object.entries(shown).filter(([field]) => new RegExp(`\\b${field}\\b`).test(query)),
  );
}

function addressRefused(uri: unknown): string | null {
  if (typeof uri !== "string" || uri === "") return "Address can't be blank";
  try {
    const url = new URL(uri);
    if (url.protocol === "https:") return null;
    const loopback = url.hostname === "127.0.0.1" || url.hostname === "localhost";
    if (url.protocol === "http:" && loopback) return null;
    return "Address protocol http:// is not supported";
  } catch {
    return "Address is invalid";
  }
}

/** The GraphQL `data` (and userErrors) for a webhook query or mutation; null: not one. */
export function answerWebhooks(
  subscriptions: FakeWebhookSubscription[],
  query: string,
  variables: Record<string, unknown>,
  context: SubscriptionContext,
): Record<string, unknown> | null {
  const mine = subscriptions.filter((s) => s.signWith === context.signWith);
  if (/\bwebhookSubscriptionCreate\s*\(/.test(query)) {
    const topic = String(variables.topic ?? "");
    const input = (variables.webhookSubscription ?? {}) as Record<string, unknown>;
    const uri = input.uri ?? input.callbackUrl;
    const fail = (field: string[] | null, message: string) => ({
      webhookSubscriptionCreate: { webhookSubscription: null, userErrors: [{ field, message }] },
    });
    const name = TOPIC_NAMES[topic];
    if (
      name === undefined ||
      (topic.startsWith("ORDERS_") && !context.scopes.includes("read_orders"))
    ) {
      return fail(
        ["topic"],
        `Topic Invalid topic specified: ${name ?? topic}. Does it exist? Is there a missing access scope? Topics allowed: app/uninstalled, shop/update`,
      );
    }
    if (!context.protectedCustomerData) {
      return fail(
        ["webhookSubscription"],
        "This app is not approved to subscribe to webhook topics containing protected customer data. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.",
      );
    }
    const refused = addressRefused(uri);
    if (refused !== null) return fail(["webhookSubscription", "uri"], refused);
    if (mine.some((s) => s.topic === topic && s.uri === uri)) {
      return fail(
        ["webhookSubscription", "callbackUrl"],
        "Address for this topic has already been taken",
      );
    }
    const created: FakeWebhookSubscription = {
      id: `gid://shopify/WebhookSubscription/${++sequence}`,
      topic,
      uri: uri as string,
      format: String(input.format ?? "JSON"),
      apiVersion: context.apiVersion,
      signWith: context.signWith,
      createdAt: new Date().toISOString(),
    };
    subscriptions.push(created);
    return {
      webhookSubscriptionCreate: { webhookSubscription: pick(created, query), userErrors: [] },
    };
  }
  if (/\bwebhookSubscriptionDelete\s*\(/.test(query)) {
    const at = subscriptions.findIndex((s) => s.id === variables.id);
    if (at < 0 || !mine.includes(subscriptions[at] as FakeWebhookSubscription)) {
      const userErrors: UserError[] = [
        { field: ["id"], message: "Webhook subscription does not exist" },
      ];
      return { webhookSubscriptionDelete: { deletedWebhookSubscriptionId: null, userErrors } };
    }
    subscriptions.splice(at, 1);
    return {
      webhookSubscriptionDelete: { deletedWebhookSubscriptionId: variables.id, userErrors: [] },
    };
  }
  if (/\bwebhookSubscriptions\s*\(/.test(query)) {
    const first = Number(variables.first ?? /first:\s*(\d+)/.exec(query)?.[1] ?? 50);
    const uri = variables.uri;
    const matching = mine.filter((s) => uri == null || s.uri === uri);
    const start =
      typeof variables.after === "string"
        ? Number(Buffer.from(variables.after, "base64").toString())
        : 0;
    const slice = matching.slice(start, start + first);
    const cursor = (i: number) => Buffer.from(String(start + i + 1)).toString("base64");
    return {
      webhookSubscriptions: {
        nodes: slice.map((s) => pick(s, query)),
        edges: slice.map((s, i) => ({ cursor: cursor(i), node: pick(s, query) })),
        pageInfo: {
          hasNextPage: start + first < matching.length,
          endCursor: slice.length > 0 ? cursor(slice.length - 1) : null,
        },
      },
    };
  }
  return null;
}
