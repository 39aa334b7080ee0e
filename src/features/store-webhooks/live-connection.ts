/**
 * Connecting and disconnecting a store with its webhooks: what the CLI and the dashboard call.
 * Connecting saves the connection (store-sync/connect-store.ts: verified credentials, sealed,
 * its sync job), then subscribes the store's order webhooks at once (ensure-webhooks.ts) so the
 * answer says whether orders will arrive in real time or by polling, and why; the connection's
 * `store-webhooks` job keeps them in place afterwards. A subscription that fails never fails the
 * connection: polling takes the orders meanwhile.
 *
 * Disconnecting removes Velvet's subscriptions from the store first (what could not be removed
 * is said), then deletes the connection.
 */
import type { AuditActor } from "../audit/audit-actor.js";
import {
  type ConnectedStore,
  type ConnectStoreInput,
  connectStore,
} from "../store-sync/connect-store.js";
import { type ChangedConnection, changeConnection } from "../store-sync/manage-connection.js";
import type { PlatformHttp } from "../store-sync/platform-http.js";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";
import { ensureWebhooks, removeWebhooks, type WebhookStatus } from "./ensure-webhooks.js";
import { enqueueWebhookCheck } from "./webhook-check-task.js";

export type LiveConnection = ConnectedStore & { webhooks: WebhookStatus };

/** Time the subscription calls at connect may take before the answer goes out without them. */
const SUBSCRIBE_TIMEOUT_MS = 30_000;

export async function connectLiveStore(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  input: ConnectStoreInput,
): Promise<LiveConnection> {
  const connected = await connectStore(deps, http, input);
  const now = deps.clock.now();
  // The check job first: whatever happens below, the worker keeps trying.
  await enqueueWebhookCheck(
    deps.db.kysely,
    connected.connectionId,
    now + deps.config.storeSync.reconcileIntervalMs,
    now,
  );
  const webhooks = (await ensureWebhooks(
    deps,
    http,
    connected.connectionId,
    AbortSignal.timeout(SUBSCRIBE_TIMEOUT_MS),
  )) ?? { webhooks: "off", note: null };
  return { ...connected, webhooks };
}

export type Disconnected = ChangedConnection & {
  /** What could not be removed from the store, in words; null when all went. */
  webhooksLeft: string | null;
};

export async function disconnectLiveStore(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  connectionId: string,
  accountId: string | null,
  actor: AuditActor,
): Promise<Disconnected> {
  // Scoped like the change below: another account's connection is not touched.
  const owned = await deps.db.kysely
    .selectFrom("store_connections")
    .select("id")
    .where("id", "=", connectionId)
    .$if(accountId !== null, (q) => q.where("account_id", "=", accountId as string))
    .executeTakeFirst();
  const webhooksLeft =
    owned === undefined
      ? null
      : await removeWebhooks(deps, http, connectionId, AbortSignal.timeout(SUBSCRIBE_TIMEOUT_MS));
  const changed = await changeConnection(deps, "disconnect", connectionId, accountId, actor);
  return { ...changed, webhooksLeft };
}
