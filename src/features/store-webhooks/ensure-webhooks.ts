/**
 * Keeping a connection's webhook subscriptions in place, and its webhook health said in words.
 * Run at connect (so the answer says whether orders will arrive in real time) and by the
 * connection's `store-webhooks` job afterwards (webhook-check-task.ts):
 * 1. No address (PUBLIC_BASE_URL unset or not https: webhook-address.ts), or no secret to verify
 *    with (a Shopify app connected with a fixed token and no API secret key): `off`, and why.
 * 2. WooCommerce: the connection's signing secret is made (random) and saved sealed with the
 *    credentials before WooCommerce learns it, so the first delivery already verifies. A
 *    reconnection keeps it (store-sync/connect-store.ts); when it could not (the key rotated),
 *    the store's webhooks for our address are removed and made again with the new secret.
 * 3. The platform's subscriptions to our address are listed; any order topic missing or not
 *    active is subscribed (again). One found gone while the webhooks were `active` (deleted in
 *    the store's admin; deleted by Shopify or disabled by WooCommerce after failed deliveries)
 *    makes the connection `failing`: polling returns to its short interval until a verified
 *    delivery arrives (receive-delivery.ts turns it `active` again).
 * 4. The platform refusing (a Read-only WooCommerce key, a ping that could not reach Velvet, a
 *    missing scope): `off` with the platform's reason; a transient failure keeps an `active`
 *    connection as it is and leaves any other `failing`, to be tried again.
 */
import { randomBytes } from "node:crypto";
import type { StoreWebhooksState } from "../../db/schema.js";
import { shopifyAccess } from "../store-sync/connection-client.js";
import { type Credentials, openCredentials, sealCredentials } from "../store-sync/credentials.js";
import { PlatformError, type PlatformHttp } from "../store-sync/platform-http.js";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";
import { pingSeen } from "./pings.js";
import { webhookAddress } from "./webhook-address.js";
import { PLATFORM_WEBHOOKS, platformWebhooks, type WebhookPlatform } from "./webhook-platforms.js";

export interface WebhookStatus {
  webhooks: StoreWebhooksState;
  /** Why, in words (null when all is well). */
  note: string | null;
}

export async function ensureWebhooks(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  connectionId: string,
  signal: AbortSignal,
): Promise<WebhookStatus | null> {
  const row = await deps.db.kysely
    .selectFrom("store_connections")
    .innerJoin("accounts", "accounts.id", "store_connections.account_id")
    .select([
      "store_connections.id",
      "store_connections.platform",
      "store_connections.shop",
      "store_connections.credentials",
      "store_connections.webhooks",
      "store_connections.webhook_note",
    ])
    .where("store_connections.id", "=", connectionId)
    .where("accounts.closed_at", "is", null)
    .executeTakeFirst();
  if (row === undefined) return null;
  const platform = row.platform as WebhookPlatform;
  const rules = PLATFORM_WEBHOOKS[platform];
  const polling = `its orders come by polling every ${Math.round(deps.config.storeSync.intervalMs / 1000)} s`;
  const save = async (status: WebhookStatus, ids?: string[]) => {
    await deps.db.kysely
      .updateTable("store_connections")
      .set({
        webhooks: status.webhooks,
        webhook_note: status.note,
        webhook_checked_at: deps.clock.now(),
        ...(ids === undefined ? {} : { webhook_ids: JSON.stringify(ids) }),
      })
      .where("id", "=", connectionId)
      .execute();
    return status;
  };
  const key = deps.config.storeSync.tokenKey;
  if (key === null) {
    return save({ webhooks: "off", note: "STORE_TOKEN_KEY is not set on the worker" });
  }
  const address = webhookAddress(deps.config, platform, connectionId);
  if (!address.ok)
    return save({ webhooks: "off", note: `${address.reason}; until then ${polling}` });

  let credentials = openCredentials(key, connectionId, row.credentials);
  const store = async (c: Credentials) => {
    credentials = c;
    await deps.db.kysely
      .updateTable("store_connections")
      .set({ credentials: sealCredentials(key, connectionId, c), updated_at: deps.clock.now() })
      .where("id", "=", connectionId)
      .execute();
  };
  const freshSecret =
    credentials.platform === "woocommerce" && credentials.webhookSecret === undefined;
  if (credentials.platform === "woocommerce" && freshSecret) {
    await store({ ...credentials, webhookSecret: randomBytes(32).toString("base64url") });
  }
  const secret = rules.secretOf(credentials);
  if (secret === null) {
    return save({
      webhooks: "off",
      note: `Shopify signs webhooks with the app's secret, which Velvet does not have for an app connected with an Admin API token: connect again with --webhook-secret (the app's API secret key) or with the app's client id and secret; until then ${polling}`,
    });
  }
  const client = platformWebhooks(http, row, credentials, shopifyAccess(deps.config), {
    onCredentials: store,
    pinged: (webhookId) => pingSeen(deps, connectionId, webhookId),
  });
  try {
    let held = await client.list(address.url, signal);
    if (freshSecret && held.length > 0) {
      // Webhooks signed with a secret Velvet no longer holds: made again with the new one.
      await client.remove(
        held.map((s) => s.id),
        signal,
      );
      held = [];
    }
    const missing = rules.subscriptionTopics.filter(
      (topic) => !held.some((s) => s.topic === topic && s.active),
    );
    const subscriptions =
      missing.length === 0 ? held : await client.subscribe(address.url, secret, signal);
    const ids = subscriptions.map((s) => s.id);
    if (row.webhooks === "active" && missing.length > 0) {
      return save(
        {
          webhooks: "failing",
          note: `${rules.name} no longer delivered ${missing.join(", ")} to Velvet (deleted in the store's admin, or stopped after failed deliveries): subscribed again; polling every ${Math.round(deps.config.storeSync.intervalMs / 1000)} s until a delivery arrives`,
        },
        ids,
      );
    }
    if (row.webhooks === "failing" && missing.length === 0) {
      return save({ webhooks: "failing", note: row.webhook_note }, ids);
    }
    return save({ webhooks: "active", note: null }, ids);
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    const { failure } = error;
    if (failure.kind === "broken") {
      return save({
        webhooks: "off",
        note: `${rules.name} refused Velvet's webhook subscription: ${failure.message}; until then ${polling}`,
      });
    }
    deps.log.warn({ connectionId, error: failure.message }, "store webhooks: check failed");
    if (row.webhooks === "active") return { webhooks: "active", note: null };
    return save({
      webhooks: "failing",
      note: `${rules.name} could not be asked for its webhooks (${failure.message}): trying again; meanwhile ${polling}`,
    });
  }
}

/**
 * Removes the connection's subscriptions from the platform, before the connection is deleted.
 * Answers null when done, or what went wrong (the merchant then deletes them in the store's
 * admin; until then their deliveries are answered 404, after which the platform stops).
 */
export async function removeWebhooks(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  connectionId: string,
  signal: AbortSignal,
): Promise<string | null> {
  const row = await deps.db.kysely
    .selectFrom("store_connections")
    .select(["id", "platform", "shop", "credentials", "webhook_ids"])
    .where("id", "=", connectionId)
    .executeTakeFirst();
  const key = deps.config.storeSync.tokenKey;
  if (row === undefined || key === null) return null;
  const ids = JSON.parse(row.webhook_ids) as string[];
  if (ids.length === 0) return null;
  const platform = row.platform as WebhookPlatform;
  try {
    const credentials = openCredentials(key, connectionId, row.credentials);
    await platformWebhooks(http, row, credentials, shopifyAccess(deps.config)).remove(ids, signal);
    return null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    deps.log.warn({ connectionId, error: message }, "store webhooks: removal failed");
    return `${PLATFORM_WEBHOOKS[platform].name} did not remove Velvet's webhooks (${message}): delete them in the store's admin`;
  }
}
