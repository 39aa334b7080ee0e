/** Store-sync test helpers: the settings a sync needs against loopback fakes. */
import type { Deps } from "../../src/deps.js";
import { cliActor } from "../../src/features/audit/audit-actor.js";
import {
  type ConnectStoreInput,
  connectStore,
} from "../../src/features/store-sync/connect-store.js";
import { sealCredentials } from "../../src/features/store-sync/credentials.js";
import {
  createPlatformHttp,
  type PlatformHttp,
} from "../../src/features/store-sync/platform-http.js";
import { syncConnection } from "../../src/features/store-sync/run-sync.js";
import type { AfterOrderHook } from "../../src/features/store-sync/store-page.js";
import { newId } from "../../src/lib/ids.js";

/** A fixed test key (32 bytes, hex) and loopback fakes allowed. */
export const STORE_SYNC_ENV = {
  STORE_TOKEN_KEY: "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0",
  WEBHOOKS_ALLOW_PRIVATE: "true",
};

export function testPlatformHttp(): PlatformHttp {
  return createPlatformHttp({ allowPrivate: true, timeoutMs: 5000 });
}

export async function connect(
  deps: Deps,
  input: Omit<ConnectStoreInput, "actor">,
): Promise<string> {
  const http = testPlatformHttp();
  try {
    const { connectionId } = await connectStore(deps, http, { ...input, actor: cliActor("test") });
    return connectionId;
  } finally {
    await http.close();
  }
}

/**
 * A connected Shopify store as store-sync saves one (a legacy token, sealed; paused, so no sync
 * runs), without asking Shopify: for the destination, which uses the connection's token.
 */
export async function insertShopifyConnection(
  deps: Pick<Deps, "db" | "config">,
  account: { accountId: string; storeId: string },
  token: string,
  shop: string,
): Promise<string> {
  const id = newId();
  const now = Date.now();
  const key = deps.config.storeSync.tokenKey as Buffer;
  await deps.db.kysely
    .insertInto("store_connections")
    .values({
      id,
      account_id: account.accountId,
      store_id: account.storeId,
      platform: "shopify",
      shop,
      credentials: sealCredentials(key, id, { platform: "shopify", token }),
      credentials_hint: `…${token.slice(-4)}`,
      state: "paused",
      cursor: "{}",
      live_after: now,
      orders_synced: 0,
      orders_skipped: 0,
      failures: 0,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

/** One sync run, as the job would run it. */
export async function runSync(deps: Deps, connectionId: string, afterOrder?: AfterOrderHook) {
  const http = testPlatformHttp();
  try {
    return await syncConnection(deps, connectionId, {
      http,
      signal: new AbortController().signal,
      afterOrder,
    });
  } finally {
    await http.close();
  }
}

export async function connectionRow(deps: Deps, connectionId: string) {
  return deps.db.kysely
    .selectFrom("store_connections")
    .selectAll()
    .where("id", "=", connectionId)
    .executeTakeFirstOrThrow();
}

export async function storeOrders(deps: Deps, storeId: string) {
  return deps.db.kysely
    .selectFrom("orders")
    .select(["external_order_id", "created_at", "customer_id"])
    .where("store_id", "=", storeId)
    .orderBy("external_order_id")
    .execute();
}
