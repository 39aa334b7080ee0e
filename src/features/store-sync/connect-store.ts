/**
 * Connecting a store: check the address, verify the credentials with one real call to the
 * platform (a first page of orders), then, in one transaction, save the connection with its
 * credentials encrypted, enqueue its sync job and record the audit event.
 *
 * Connecting a shop that is already connected (same platform and address) replaces its
 * credentials and makes it active again, keeping its cursor and counts: that is how a revoked
 * token is fixed ("reconnect with a new token"), without reading the history again.
 *
 * Backfill: the first sync reads the orders updated in the last `backfillDays` days (default 90;
 * 0: only orders from now on). Orders created before the connection are history: dated, enriched
 * after live work, and no VIP alert; orders created after it are live and alert.
 */

import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import { getAccount } from "../accounts/get-account.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { platformClient } from "./connection-client.js";
import { type Credentials, hintOf, requireKey, sealCredentials } from "./credentials.js";
import { PlatformError, type PlatformHttp } from "./platform-http.js";
import { normalizeShop } from "./shopify-client.js";
import type { SyncCursor } from "./store-platform.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";
import { enqueueStoreSync } from "./sync-task.js";
import { normalizeSiteUrl } from "./woocommerce-client.js";

export const DEFAULT_BACKFILL_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface ConnectStoreInput {
  accountId: string;
  /** Shopify: the myshopify.com domain; WooCommerce: the site's https:// address. */
  shop: string;
  credentials: Credentials;
  backfillDays?: number;
  actor: AuditActor;
}

export interface ConnectedStore {
  connectionId: string;
  platform: Credentials["platform"];
  shop: string;
  /** true: an existing connection of this shop got the new credentials. */
  reconnected: boolean;
}

export async function connectStore(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  input: ConnectStoreInput,
): Promise<ConnectedStore> {
  const key = requireKey(deps.config.storeSync.tokenKey);
  const allowPrivate = deps.config.alerts.allowPrivateWebhooks;
  const { platform } = input.credentials;
  const backfillDays = input.backfillDays ?? DEFAULT_BACKFILL_DAYS;
  if (!Number.isInteger(backfillDays) || backfillDays < 0 || backfillDays > 3650) {
    throw new AppError("bad_request", "backfill days must be a whole number from 0 to 3650");
  }
  const shop =
    platform === "shopify"
      ? normalizeShop(input.shop, allowPrivate)
      : normalizeSiteUrl(input.shop, allowPrivate);
  const account = await getAccount(deps.db.kysely, input.accountId);
  if (account === null || account.closedAt !== null) {
    throw new AppError("not_found", `No account ${input.accountId}`);
  }
  const now = deps.clock.now();
  const cursor: SyncCursor = {
    since: new Date(now - backfillDays * DAY_MS).toISOString(),
    after: null,
    maxSeen: null,
  };
  await verify(http, { platform, shop }, input.credentials, allowPrivate, cursor);

  const existing = await deps.db.kysely
    .selectFrom("store_connections")
    .select("id")
    .where("store_id", "=", account.storeId)
    .where("platform", "=", platform)
    .where("shop", "=", shop)
    .executeTakeFirst();
  const connectionId = existing?.id ?? newId(now);
  const sealed = sealCredentials(key, connectionId, input.credentials);
  const hint = hintOf(input.credentials);
  await deps.db.kysely.transaction().execute(async (trx) => {
    if (existing) {
      await trx
        .updateTable("store_connections")
        .set({
          credentials: sealed,
          credentials_hint: hint,
          state: "active",
          failures: 0,
          last_error: null,
          updated_at: now,
        })
        .where("id", "=", connectionId)
        .execute();
    } else {
      await trx
        .insertInto("store_connections")
        .values({
          id: connectionId,
          account_id: account.accountId,
          store_id: account.storeId,
          platform,
          shop,
          credentials: sealed,
          credentials_hint: hint,
          state: "active",
          cursor: JSON.stringify(cursor),
          live_after: now,
          last_sync_at: null,
          orders_synced: 0,
          orders_skipped: 0,
          failures: 0,
          last_error: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    await enqueueStoreSync(trx, connectionId, now);
    await recordAuditEvent(
      trx,
      {
        accountId: account.accountId,
        actor: input.actor,
        action: "store.connected",
        subject: connectionId,
        details: { platform, shop, backfillDays: existing ? null : backfillDays },
      },
      now,
    );
  });
  deps.jobs.notify();
  return { connectionId, platform, shop, reconnected: existing !== undefined };
}

async function verify(
  http: PlatformHttp,
  connection: { platform: Credentials["platform"]; shop: string },
  credentials: Credentials,
  allowPrivate: boolean,
  cursor: SyncCursor,
): Promise<void> {
  const name = connection.platform === "shopify" ? "Shopify" : "WooCommerce";
  try {
    const client = platformClient(http, connection, credentials, allowPrivate);
    await client.fetchPage(cursor, AbortSignal.timeout(60_000));
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    const what =
      error.failure.kind === "broken"
        ? `${name} did not accept the connection: ${error.message}`
        : `${name} could not be reached to check the credentials: ${error.message}. Check the store's address, then try again.`;
    throw new AppError(
      error.failure.kind === "broken" ? "bad_request" : "service_unavailable",
      what,
    );
  }
}
