/** Store connections as people see them: never the credentials, only their last 4 characters. */
import type { Kysely } from "kysely";
import type {
  Database,
  StoreConnectionState,
  StorePlatform,
  StoreWebhooksState,
} from "../../db/schema.js";
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
  /** Whether the store pushes its orders (features/store-webhooks), and why not. */
  webhooks: StoreWebhooksState;
  webhookNote: string | null;
  /** ISO instant of the latest verified delivery, or null. */
  lastWebhookAt: string | null;
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
      "webhooks",
      "webhook_note",
      "webhook_last_at",
      "created_at",
      // The orders pushed by the store's webhooks and taken, while their deliveries are still
      // held (features/store-webhooks folds them into orders_synced when they go).
      (eb) =>
        eb
          .selectFrom("store_events")
          .select((e) => e.fn.countAll().as("n"))
          .whereRef("store_events.connection_id", "=", "store_connections.id")
          .where("store_events.outcome", "=", "taken")
          .as("pushed"),
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
    lastSyncAt: r.last_sync_at === null ? null : iso(r.last_sync_at),
    ordersSynced: Number(r.orders_synced) + Number(r.pushed ?? 0),
    ordersSkipped: Number(r.orders_skipped),
    skipReasons: parseReasons(r.skip_reasons),
    lastError: r.last_error,
    webhooks: r.webhooks,
    webhookNote: r.webhook_note,
    lastWebhookAt: r.webhook_last_at === null ? null : iso(r.webhook_last_at),
    connectedAt: iso(r.created_at),
  }));
}

function iso(ms: number | string | bigint): string {
  return new Date(Number(ms)).toISOString();
}
