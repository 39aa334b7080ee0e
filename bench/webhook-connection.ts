/**
 * The store connection the webhooks benchmark delivers to, written the way `velvet store
 * connect` writes it (features/store-sync/connect-store.ts) minus the call that verifies the
 * credentials with the shop and the audit event: a Shopify row of the CLI-made account's store,
 * state active, its credentials `{platform: "shopify", token, webhookSecret}` sealed by the
 * project's own `sealCredentials` under the STORE_TOKEN_KEY the server runs with (AES-GCM with
 * the connection id bound in, so Velvet opens them as it opens any connection's), a cursor that
 * starts now as a zero-day backfill's does, and `live_after` now, so every delivered order is a
 * live one (enriched at live priority, as a real delivery's is).
 *
 * It is written before `velvet serve` starts, so the worker's start-up step gives it its
 * `store-sync` and `store-webhooks` jobs as it would after a restart: the shop is the fake Shopify
 * of bench/fake-shopify-server.ts, which answers the one sync with an empty page. Without
 * PUBLIC_BASE_URL the `store-webhooks` job makes no subscription (the benchmark posts the
 * deliveries itself) and calls nothing. Those two runs are awaited before the stream
 * (`waitForFirstSync`), and both intervals are long, so neither runs during it.
 */
import { hintOf, sealCredentials } from "../src/features/store-sync/credentials.js";
import { normalizeShop } from "../src/features/store-sync/shopify-client.js";
import { newId } from "../src/lib/ids.js";
import { openEitherDatabase } from "./either-database.js";
import type { VelvetAccount } from "./velvet-process.js";

export interface BenchConnection {
  id: string;
  /** What signs the deliveries: the connection's `webhookSecret`. */
  webhookSecret: string;
}

export async function insertShopifyConnection(options: {
  /** A SQLite file or a postgres:// URL (DATABASE_URL). */
  database: string;
  account: VelvetAccount;
  shop: string;
  token: string;
  webhookSecret: string;
  key: Buffer;
}): Promise<BenchConnection> {
  const now = Date.now();
  const id = newId(now);
  const credentials = {
    platform: "shopify" as const,
    token: options.token,
    webhookSecret: options.webhookSecret,
  };
  const cursor = { since: new Date(now).toISOString(), after: null, maxSeen: null };
  const db = await openEitherDatabase(options.database, { write: true });
  try {
    await db.all(
      `insert into store_connections
         (id, account_id, store_id, platform, shop, credentials, credentials_hint, state, cursor,
          live_after, last_sync_at, orders_synced, orders_skipped, failures, last_error,
          created_at, updated_at)
       values (?, ?, ?, 'shopify', ?, ?, ?, 'active', ?, ?, null, 0, 0, 0, null, ?, ?)`,
      [
        id,
        options.account.accountId,
        options.account.storeId,
        normalizeShop(options.shop, true),
        sealCredentials(options.key, id, credentials),
        hintOf(credentials),
        JSON.stringify(cursor),
        now,
        now,
        now,
      ],
    );
  } finally {
    await db.close();
  }
  return { id, webhookSecret: options.webhookSecret };
}

export interface ConnectionState {
  state: string;
  failures: number;
  lastError: string | null;
  lastSyncAt: number | null;
  webhooks: string;
  webhookCheckedAt: number | null;
  ordersSynced: number;
}

export async function connectionState(database: string, id: string): Promise<ConnectionState> {
  const db = await openEitherDatabase(database);
  try {
    const [row] = await db.all(
      `select state, failures, last_error, last_sync_at, webhooks, webhook_checked_at,
              orders_synced
       from store_connections where id = ?`,
      [id],
    );
    if (row === undefined) throw new Error(`the benchmark's store connection ${id} is gone`);
    return {
      state: String(row.state),
      failures: Number(row.failures),
      lastError: (row.last_error as string | null) ?? null,
      lastSyncAt: (row.last_sync_at as number | null) ?? null,
      webhooks: String(row.webhooks),
      webhookCheckedAt: (row.webhook_checked_at as number | null) ?? null,
      ordersSynced: Number(row.orders_synced),
    };
  } finally {
    await db.close();
  }
}

/** Until the worker's first sync and webhook check of the connection ran (or `timeoutMs`). */
export async function waitForFirstSync(
  database: string,
  id: string,
  timeoutMs = 30_000,
): Promise<ConnectionState> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const state = await connectionState(database, id);
    if (state.lastSyncAt !== null && state.webhookCheckedAt !== null) return state;
    if (Date.now() >= deadline) {
      throw new Error(
        `the store connection's first sync did not run within ${timeoutMs / 1000} s: ${JSON.stringify(state)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
