/**
 * The Shopify destination, on a store already connected for sync (its credentials stay with
 * store-sync, sealed under STORE_TOKEN_KEY): a VIP's Shopify customer (the order's customer,
 * whose id the sync keeps) gets a tag (`tagsAdd`, default `VIP`) and a `velvet.vip_score`
 * metafield (`metafieldsSet`), and the tag of their tier (shopify-tier-tags.ts), in one GraphQL
 * request; a forgotten person's tags and metafield are removed (`tagsRemove`,
 * `metafieldsDelete`), and so are those of a VIP a re-judge found under the line
 * (`customer.not_vip`, which follows the `customer.vip` subscription). Adding checks the token's `write_customers`
 * scope with Shopify first. Customers Shopify does not know (from the API or a file) are not
 * sent there.
 */
import { AppError } from "../../../lib/app-error.js";
import { excerpt } from "../../../lib/excerpt.js";
import type { OutboundResponse } from "../../../lib/outbound/outbound-http.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import { accountTiers } from "../../customers/account-tiers.js";
import { PlatformError } from "../../store-sync/platform-http.js";
import { shopifyAdminToken } from "../../store-sync/shopify-admin-token.js";
import { type ShopifyAccess, shopifyEndpoint } from "../../store-sync/shopify-client.js";
import { CustomerEventBody } from "../customer-event-body.js";
import type { DestinationDeclaration } from "../destination-declaration.js";
import type { DestinationDriver, DriverDeps } from "../destination-driver.js";
import { type AnswerRules, readHttpAnswer } from "../read-http-answer.js";
import {
  customerGid,
  METAFIELD,
  readMutationAnswer,
  SCOPES_QUERY,
  TAG_VIP,
  UNTAG,
} from "./shopify-graphql.js";
import { TAG_VIP_AND_TIER, tierTag, tierTagChanges } from "./shopify-tier-tags.js";

const DEFAULT_TAG = "VIP";

interface Connection {
  id: string;
  shop: string;
  credentials: string;
}

/**
 * One Admin GraphQL call with the connection's token (renewed by store-sync's token source when
 * near its end, and once more when Shopify answers 401). A token that cannot be had throws
 * store-sync's PlatformError: `broken` (the app's secret refused) or `transient`.
 */
async function graphql(
  deps: DriverDeps,
  access: ShopifyAccess,
  c: Connection,
  body: object,
  signal: AbortSignal,
): Promise<OutboundResponse> {
  const tokens = shopifyAdminToken(deps, c, deps.http);
  const send = (token: string) =>
    deps.http.send(
      {
        url: shopifyEndpoint(c.shop, access),
        method: "POST",
        headers: { "content-type": "application/json", "x-shopify-access-token": token },
        body: JSON.stringify(body),
      },
      signal,
    );
  const res = await send(await tokens.current(signal));
  if (res.kind !== "answered" || res.status !== 401) return res;
  const renewed = await tokens.renew(signal);
  return renewed === null ? res : send(renewed);
}

/** A token that could not be had, as a delivery result. */
function tokenFailure(error: unknown): DeliveryResult {
  if (!(error instanceof PlatformError)) throw error;
  return error.failure.kind === "broken"
    ? { outcome: "failed", statusCode: null, error: error.message }
    : { outcome: "retry", statusCode: null, error: error.message };
}

/**
 * A 200 is read for GraphQL's own errors; 401 (after one renewal), 403 and 404 mean the store
 * refused the call; a 429 waits (Retry-After, else 2 s); every other answer is tried again.
 */
const SHOPIFY_ANSWERS: AnswerRules = {
  ok: (res) => readMutationAnswer(res.status, res.body),
  rateLimitWaitMs: 2_000,
  rejected: "retry",
  special: (res, error) =>
    res.status === 401 || res.status === 403 || res.status === 404
      ? {
          outcome: "failed",
          statusCode: res.status,
          error: `the store refused the call (${error})`,
        }
      : undefined,
};

/** The kind's name among those `destinations.kind` stores (db/schema.ts, DestinationKindNames). */
declare module "../../../db/schema.js" {
  interface DestinationKindNames {
    shopify: true;
  }
}

/** `access`: the shop addresses allowed and the Admin API version (SHOPIFY_API_VERSION). */
export const SHOPIFY_DESTINATION = {
  kind: "shopify",
  label: "Shopify customer tags",
  summary: "tag each VIP's Shopify customer on a connected store (needs write_customers)",
  events: ["customer.vip", "customer.forgotten"],
  fields: [
    {
      name: "connectionId",
      label: "Store",
      type: "store",
      platform: "shopify",
      platformLabel: "Shopify",
      flag: "connection",
      cliValue: "<id>",
      cliHelp: "the store connection (velvet store list)",
    },
    {
      name: "tag",
      label: "Customer tag",
      type: "text",
      default: DEFAULT_TAG,
      cliValue: "<tag>",
      cliHelp: "the customer tag",
    },
  ],
  form: {
    title: "Tag VIPs in Shopify",
    intro:
      "A VIP who ordered in a connected Shopify store gets a customer tag (for Flow, discounts, your help desk) and a `velvet.vip_score` metafield; forgetting a person removes both. The store's token needs the `write_customers` scope: Velvet checks it with Shopify first.",
    submit: "Tag VIPs in Shopify",
    chooseEvents: false,
  },
} as const satisfies DestinationDeclaration;

export function shopifyDriver(options: ShopifyAccess): DestinationDriver {
  return {
    ...SHOPIFY_DESTINATION,
    forgetsOnlyWhatItWasSent: true,
    accepts: (_event, data) =>
      typeof (data.customer as { shopifyId?: unknown } | undefined)?.shopifyId === "string",
    async prepare(deps, accountId, input, events) {
      const tag = (input.tag ?? "").trim() || DEFAULT_TAG;
      if (tag.length > 40 || tag.includes(","))
        throw new AppError("bad_request", "A tag is at most 40 characters, without commas");
      const c = await deps.db.kysely
        .selectFrom("store_connections")
        .select(["id", "shop", "credentials", "platform"])
        .where("id", "=", input.connectionId ?? "")
        .where("account_id", "=", accountId)
        .executeTakeFirst();
      if (c === undefined || c.platform !== "shopify")
        throw new AppError(
          "bad_request",
          `No connected Shopify store ${input.connectionId ?? ""} in this account`,
        );
      const res = await graphql(
        deps,
        options,
        c,
        { query: SCOPES_QUERY },
        AbortSignal.timeout(15_000),
      ).catch((error: unknown) => {
        if (!(error instanceof PlatformError)) throw error;
        throw new AppError("bad_request", `Shopify did not give the app a token: ${error.message}`);
      });
      if (res.kind !== "answered" || res.verdict !== "ok") {
        const why = res.kind === "answered" ? `${res.status} ${excerpt(res.body)}` : res.error;
        throw new AppError(
          "bad_request",
          `Shopify could not be asked for the token's scopes: ${why}`,
        );
      }
      const handles = JSON.stringify(JSON.parse(res.body)?.data?.currentAppInstallation ?? {});
      if (!handles.includes('"write_customers"')) {
        throw new AppError(
          "bad_request",
          "The store's token lacks the write_customers scope: in Shopify, add it to the app's Admin API scopes and install the new version on the shop (a legacy custom app: connect the store again with its new token)",
        );
      }
      return {
        target: `${c.shop} (tag ${tag})`,
        settings: { connectionId: c.id, tag },
        secret: null,
        events: events ?? ["customer.vip", "customer.forgotten"],
      };
    },
    async send(deps, destination, delivery, signal): Promise<DeliveryResult> {
      const connectionId = String(destination.settings.connectionId ?? "");
      const tag = String(destination.settings.tag ?? DEFAULT_TAG);
      const c = await deps.db.kysely
        .selectFrom("store_connections")
        .select(["id", "shop", "credentials"])
        .where("id", "=", connectionId)
        .where("account_id", "=", destination.accountId)
        .executeTakeFirst();
      if (c === undefined)
        return { outcome: "failed", statusCode: null, error: "the Shopify store was disconnected" };
      if (delivery.test) {
        const res = await graphql(deps, options, c, { query: SCOPES_QUERY }, signal).catch(
          tokenFailure,
        );
        return "outcome" in res ? res : readHttpAnswer(res, SHOPIFY_ANSWERS);
      }
      const event = CustomerEventBody.parse(JSON.parse(delivery.body));
      const shopifyId = event.data.customer.shopifyId;
      if (shopifyId === undefined)
        return { outcome: "failed", statusCode: null, error: "the customer has no Shopify id" };
      const id = customerGid(shopifyId);
      const tiers = await accountTiers(deps.db.kysely, destination.accountId);
      const score = {
        ownerId: id,
        ...METAFIELD,
        type: "number_integer",
        value: String(event.data.score ?? 0),
      };
      const tierTags = tierTagChanges(event.data.tier ?? null, tiers);
      const body =
        event.type === "customer.forgotten" || event.type === "customer.not_vip"
          ? {
              query: UNTAG,
              variables: {
                id,
                tags: [tag, ...tiers.map((t) => tierTag(t.name))],
                metafields: [{ ownerId: id, ...METAFIELD }],
              },
            }
          : // Nothing to take off (no other tiers): the plain mutation, no empty tagsRemove.
            tierTags.remove.length === 0
            ? {
                query: TAG_VIP,
                variables: { id, tags: [tag, ...tierTags.add], metafields: [score] },
              }
            : {
                query: TAG_VIP_AND_TIER,
                variables: {
                  id,
                  tags: [tag, ...tierTags.add],
                  untags: tierTags.remove,
                  metafields: [score],
                },
              };
      const res = await graphql(deps, options, c, body, signal).catch(tokenFailure);
      return "outcome" in res ? res : readHttpAnswer(res, SHOPIFY_ANSWERS);
    },
  };
}
