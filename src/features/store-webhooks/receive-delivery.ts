/**
 * One delivery from a connected store, as the inbound route hands it over (raw bytes and
 * headers). In order:
 * 1. The connection named in the address, of that platform, with its account open; else 404.
 * 2. WooCommerce's ping (`webhook_id=<id>`, form-encoded and unsigned, sent when a webhook is
 *    created: WC_Webhook::deliver_ping) is answered exactly 200 (anything else is a failed
 *    ping to WooCommerce) and recorded as `ping:<id>`, already processed, so the subscribing
 *    process learns that WooCommerce reached Velvet (pings.ts). Being unsigned, pings are
 *    recorded only while the connection holds fewer than MAX_PINGS of them.
 * 3. The signature over the raw bytes (verify-signature.ts) with the connection's secret; a
 *    missing or wrong one is 401 and writes nothing.
 * 4. A topic Velvet did not subscribe to, or a delivery for a paused or broken connection, is
 *    answered 200 and ignored (a refusal would make the platform drop the subscription; the
 *    connection's polling reads the store again when it is resumed).
 * 5. The delivery stored under the platform's delivery id with its `store-event` job, atomically
 *    (store-delivery.ts; a delivery seen before inserts nothing: `received: "duplicate"`), and
 *    the connection's webhook health (a verified delivery proves the webhooks deliver). Then 200.
 * The order itself is taken by the job (store-event-task.ts), so the answer never waits on
 * enrichment or on other orders: Shopify gives a delivery five seconds
 * (https://shopify.dev/docs/apps/build/webhooks/troubleshooting-webhooks).
 */
import { createHash } from "node:crypto";
import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import { openCredentials } from "../store-sync/credentials.js";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";
import { recordPing } from "./pings.js";
import { storeDelivery } from "./store-delivery.js";
import { signatureMatches } from "./verify-signature.js";
import { PLATFORM_WEBHOOKS, type WebhookPlatform } from "./webhook-platforms.js";

export interface Delivery {
  platform: WebhookPlatform;
  connectionId: string;
  headers: Record<string, string | string[] | undefined>;
  raw: Buffer;
}

export type Received = "new" | "duplicate" | "ping" | "ignored";

/** A verified delivery moves `webhook_last_at` at most this often (one row many deliveries touch). */
const HEALTH_WRITE_MS = 10_000;

export async function receiveDelivery(deps: StoreSyncDeps, delivery: Delivery): Promise<Received> {
  const { platform, connectionId, raw } = delivery;
  const rules = PLATFORM_WEBHOOKS[platform];
  const header = (name: string) => {
    const value = delivery.headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  // The intake's own connections (db/connect.ts `indexed`: on PostgreSQL a few kept apart from
  // the pool the worker's jobs use), so an answer never waits behind a busy worker.
  const db = deps.db.indexed;
  const connection = await db
    .selectFrom("store_connections")
    .innerJoin("accounts", "accounts.id", "store_connections.account_id")
    .select([
      "store_connections.id",
      "store_connections.credentials",
      "store_connections.state",
      "store_connections.webhooks",
      "store_connections.webhook_last_at",
    ])
    .where("store_connections.id", "=", connectionId)
    .where("store_connections.platform", "=", platform)
    .where("accounts.closed_at", "is", null)
    .executeTakeFirst();
  if (connection === undefined) {
    throw new AppError("not_found", `No ${rules.name} store connection ${connectionId}`);
  }
  const signature = header(rules.signatureHeader);
  const ping = signature === undefined ? rules.pingOf(raw) : null;
  if (ping !== null) {
    await recordPing(deps, connection.id, ping);
    return "ping";
  }

  const key = deps.config.storeSync.tokenKey;
  if (key === null) {
    // The platform retries (Shopify) or reconciliation finds the order (WooCommerce).
    deps.log.error({ connectionId }, "store webhook: STORE_TOKEN_KEY is not set on this process");
    throw new AppError(
      "service_unavailable",
      "This Velvet process cannot verify store webhooks: STORE_TOKEN_KEY is not set",
    );
  }
  const secret = rules.secretOf(openCredentials(key, connection.id, connection.credentials));
  if (secret === null || !signatureMatches(raw, signature, secret)) {
    throw new AppError(
      "unauthorized",
      `The delivery's ${rules.signatureHeader} signature does not match this connection`,
    );
  }
  const topic = header(rules.topicHeader) ?? "";
  // A paused or broken connection takes nothing: polling reads the store when it resumes.
  if (!rules.topics.includes(topic) || connection.state !== "active") return "ignored";

  const deliveryId =
    header(rules.deliveryIdHeader) ?? `sha256:${createHash("sha256").update(raw).digest("hex")}`;
  const now = deps.clock.now();
  const eventId = newId(now);
  const inserted = await storeDelivery(deps.db, {
    id: eventId,
    connectionId: connection.id,
    deliveryId: deliveryId.slice(0, 200),
    topic,
    body: raw.toString("utf8"),
    receivedAt: now,
  });
  if (inserted) deps.jobs.notify();
  // A verified delivery proves the webhooks deliver: written at most every HEALTH_WRITE_MS
  // (one row that every delivery of the store would otherwise write).
  const stale =
    connection.webhooks !== "active" ||
    connection.webhook_last_at === null ||
    Number(connection.webhook_last_at) < now - HEALTH_WRITE_MS;
  if (stale) {
    await db
      .updateTable("store_connections")
      .set({ webhooks: "active", webhook_note: null, webhook_last_at: now })
      .where("id", "=", connection.id)
      .execute();
  }
  return inserted ? "new" : "duplicate";
}
