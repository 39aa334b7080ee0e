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
 * after live work, and no VIP alert; orders created after it are live and alert. Shopify gives
 * only the last 60 days of orders to an app without the `read_all_orders` scope: the granted
 * scopes are read and a longer backfill is cut to 60 days, which the answer says.
 *
 * A Dev Dashboard app connects with its client id and secret: the verifying call gets the first
 * token by the client-credentials grant, and that token is saved (sealed) with the secret.
 *
 * The checks before the save (checkAndVerify) are also the dry run's
 * (estimate-backfill.ts), so a dry run refuses exactly what connecting refuses.
 */

import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import { getAccount } from "../accounts/get-account.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { platformClient, shopifyAccess } from "./connection-client.js";
import {
  type Credentials,
  checkShopifyCredentials,
  hintOf,
  keepWebhookSecret,
  requireKey,
  sealCredentials,
} from "./credentials.js";
import { PlatformError, type PlatformHttp } from "./platform-http.js";
import { normalizeShop } from "./shopify-client.js";
import type { SyncCursor } from "./store-platform.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";
import { enqueueStoreSync } from "./sync-task.js";
import { normalizeSiteUrl } from "./woocommerce-client.js";

export const DEFAULT_BACKFILL_DAYS = 90;
/** What Shopify gives an app without read_all_orders. */
export const SHOPIFY_RECENT_DAYS = 60;
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
  /** The days of history the first sync reads (null on a reconnection: the sync carries on). */
  backfillDays: number | null;
  /** Set when Shopify's missing read_all_orders scope cut the backfill asked for. */
  backfillCut: { asked: number; reason: string } | null;
}

export async function connectStore(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  input: ConnectStoreInput,
): Promise<ConnectedStore> {
  const key = requireKey(deps.config.storeSync.tokenKey);
  const { account, platform, shop, asked, now, checked } = await checkAndVerify(deps, http, input);
  const { backfillDays, cursor } = checked;

  const existing = await findConnection(deps, account.storeId, platform, shop);
  const connectionId = existing?.id ?? newId(now);
  const credentials = existing
    ? keepWebhookSecret(key, existing, checked.credentials)
    : checked.credentials;
  const sealed = sealCredentials(key, connectionId, credentials);
  const hint = hintOf(credentials);
  await deps.db.kysely.transaction().execute(async (trx) => {
    // The account may have been closed while the platform answered: nothing is saved then.
    // PostgreSQL: locked as closing locks it (privacy/close-account.ts), so one waits for the other.
    let open = trx.selectFrom("accounts").select("closed_at").where("id", "=", account.accountId);
    if (deps.db.dialect === "postgres") open = open.forUpdate();
    const row = await open.executeTakeFirst();
    if (row === undefined || row.closed_at !== null) {
      throw new AppError("not_found", `No account ${input.accountId}`);
    }
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
          // Both platforms give an order's time to the second (Shopify's DateTime, WooCommerce's
          // date_created_gmt): an order placed in the second the store was connected, after it,
          // would otherwise read as older than the connection and raise no alert.
          live_after: Math.floor(now / 1000) * 1000,
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
  return {
    connectionId,
    platform,
    shop,
    reconnected: existing !== undefined,
    backfillDays: existing ? null : backfillDays,
    backfillCut: existing || backfillDays === asked ? null : checked.cut,
  };
}

/**
 * What a connection needs before any call (the same checks for a connection and its dry run):
 * STORE_TOKEN_KEY, credentials of one kind, a backfill from 0 to 3650 days, an address of the
 * platform's form, an open account.
 */
export async function checkConnectInput(
  deps: StoreSyncDeps,
  input: Omit<ConnectStoreInput, "actor">,
) {
  requireKey(deps.config.storeSync.tokenKey);
  const allowPrivate = deps.config.alerts.allowPrivateWebhooks;
  const { platform } = input.credentials;
  if (input.credentials.platform === "shopify") checkShopifyCredentials(input.credentials);
  const asked = input.backfillDays ?? DEFAULT_BACKFILL_DAYS;
  if (!Number.isInteger(asked) || asked < 0 || asked > 3650) {
    throw new AppError("bad_request", "backfill days must be a whole number from 0 to 3650");
  }
  const shop =
    platform === "shopify"
      ? normalizeShop(input.shop, allowPrivate)
      : normalizeSiteUrl(input.shop, allowPrivate);
  const account = await getAccount(deps, input.accountId);
  if (account === null || account.closedAt !== null) {
    throw new AppError("not_found", `No account ${input.accountId}`);
  }
  return { account, platform, shop, asked };
}

/** Both checks, as a connection and its dry run make them: the input, then one real call. */
export async function checkAndVerify(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  input: Omit<ConnectStoreInput, "actor">,
) {
  const { account, platform, shop, asked } = await checkConnectInput(deps, input);
  const now = deps.clock.now();
  const connection = { platform, shop };
  const checked = await verifyConnection(deps, http, connection, input.credentials, now, asked);
  return { account, platform, shop, asked, now, checked };
}

/** The store's existing connection to this shop, if any (a connection then reconnects it). */
export async function findConnection(
  deps: Pick<StoreSyncDeps, "db">,
  storeId: string,
  platform: Credentials["platform"],
  shop: string,
) {
  return deps.db.kysely
    .selectFrom("store_connections")
    .select(["id", "credentials"])
    .where("store_id", "=", storeId)
    .where("platform", "=", platform)
    .where("shop", "=", shop)
    .executeTakeFirst();
}

/**
 * One real call with the credentials (the first page of the backfill), and for Shopify the
 * granted scopes. Answers the credentials to save (a token obtained, a host's quirk found), the
 * backfill to read, and a client that goes on with them.
 */
export async function verifyConnection(
  deps: Pick<StoreSyncDeps, "log" | "config">,
  http: PlatformHttp,
  connection: { platform: Credentials["platform"]; shop: string },
  credentials: Credentials,
  now: number,
  asked: number,
) {
  let latest = credentials;
  const signal = AbortSignal.timeout(60_000);
  return withPlatformErrors(deps, connection.platform, "check the credentials", async () => {
    const client = platformClient(
      http,
      connection,
      credentials,
      shopifyAccess(deps.config),
      (c) => {
        latest = c;
      },
    );
    let backfillDays = asked;
    let cut = { asked, reason: "" };
    const scopes = (await client.grantedScopes?.(signal)) ?? null;
    if (scopes !== null && !scopes.includes("read_all_orders") && asked > SHOPIFY_RECENT_DAYS) {
      backfillDays = SHOPIFY_RECENT_DAYS;
      cut = {
        asked,
        reason: `Shopify gives this app only the last ${SHOPIFY_RECENT_DAYS} days of orders: add the read_all_orders scope to the app to read ${asked} days`,
      };
    }
    const cursor: SyncCursor = {
      since: new Date(now - backfillDays * DAY_MS).toISOString(),
      after: null,
      maxSeen: null,
    };
    await client.fetchPage(cursor, signal);
    return { credentials: latest, backfillDays, cursor, cut, client };
  });
}

/** A platform's refusal said as the connection's answer: what to fix, or to try again. */
export async function withPlatformErrors<T>(
  deps: Pick<StoreSyncDeps, "log">,
  platform: Credentials["platform"],
  doing: string,
  run: () => Promise<T>,
): Promise<T> {
  const name = platform === "shopify" ? "Shopify" : "WooCommerce";
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof PlatformError)) throw error;
    const { failure } = error;
    if ("detail" in failure && failure.detail !== undefined)
      deps.log.warn({ platform, error: failure.detail }, "store connection check failed");
    // Before any store answered, only "not a public address" or "could not be reached".
    if (failure.kind === "broken" && failure.notPublic)
      throw new AppError("bad_request", `The ${name} store's address is not a public address.`);
    if (failure.kind === "broken")
      throw new AppError("bad_request", `${name} did not accept the connection: ${error.message}`);
    throw new AppError(
      "service_unavailable",
      failure.kind === "transient" && failure.unreachable
        ? `The ${name} store could not be reached to ${doing}; try again.`
        : `${name} could not be reached to ${doing} (${error.message}); try again`,
    );
  }
}
