/** Store connections as people see them: never the credentials, only their last 4 characters. */
import type { Kysely } from "kysely";
import type { Database, StoreConnectionState, StorePlatform } from "../../db/schema.js";
import { parseReasons } from "./store-page.js";

export interface ConnectionView {
  connectionId: string;
  accountId: string;
  platform: StorePlatform;
  shop: string;
  /** `…abcd`: the token's (or WooCommerce secret's) last 4 characters. */
  credentials: string;
  state: StoreConnectionState;
  /** ISO instant of the last page stored, or null. */
  lastSyncAt: string | null;
  ordersSynced: number;
  ordersSkipped: number;
  /** Skipped orders by reason (test order, awaiting payment, forgotten customer…). */
  skipReasons: Record<string, number>;
  lastError: string | null;
  connectedAt: string;
}

export async function listConnections(
  db: Kysely<Database>,
  accountId: string | null,
): Promise<ConnectionView[]> {
  let query = db
    .selectFrom("store_connections")
    .select([
      "id",
      "account_id",
      "platform",
      "shop",
      "credentials_hint",
      "state",
      "last_sync_at",
      "orders_synced",
      "orders_skipped",
      "last_error",
      "skip_reasons",
      "created_at",
    ])
    .orderBy("created_at")
    .orderBy("id");
  if (accountId !== null) query = query.where("account_id", "=", accountId);
  const rows = await query.execute();
  return rows.map((r) => ({
    connectionId: r.id,
    accountId: r.account_id,
    platform: r.platform,
    shop: r.shop,
    credentials: r.credentials_hint,
    state: r.state,
    lastSyncAt: r.last_sync_at === null ? null : new Date(Number(r.last_sync_at)).toISOString(),
    ordersSynced: Number(r.orders_synced),
    ordersSkipped: Number(r.orders_skipped),
    skipReasons: parseReasons(r.skip_reasons),
    lastError: r.last_error,
    connectedAt: new Date(Number(r.created_at)).toISOString(),
  }));
}
