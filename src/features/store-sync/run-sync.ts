/**
 * One sync run of one connection: pages of orders updated since its cursor, each stored with the
 * cursor in one transaction (store-page.ts), until the platform has no next page. What the run
 * says tells the job when to come back (sync-task.ts):
 * - `synced`: up to date; the next run after STORE_SYNC_INTERVAL_SECONDS.
 * - `more`: the worker is stopping or the lease is ending; the next run at once.
 * - `wait`: the platform asked for a long pause (rate limit); the next run after it.
 * - `failed`: a transient failure (5xx, timeout, network); the next run after a backoff that
 *   doubles with each failure in a row (at most an hour), recorded on the connection as its
 *   last error. After MAX_FAILURES_IN_A_ROW (about two days of hourly tries) the connection is
 *   marked broken: no error class is retried for ever.
 * - `broken`: credentials refused or store gone (401/403/404), or data refused (Shopify's
 *   ACCESS_DENIED); the connection is marked broken and is not called again until someone resumes
 *   or reconnects it. A Shopify token that expired is renewed, never a reason to break.
 * - `idle`: the connection is paused, broken or gone, or its account is closed; nothing was
 *   called, or nothing was stored.
 *
 * The last error kept on the connection (shown on the Stores page and by `velvet store list`)
 * may quote the platform's answer; the connection's own secrets are taken out of it first
 * (lib/without-secrets.ts), in case the platform repeated them.
 */
import type { Selectable } from "kysely";
import type { StoreConnectionsTable } from "../../db/schema.js";
import { withoutSecrets } from "../../lib/without-secrets.js";
import { platformClient, shopifyAccess } from "./connection-client.js";
import { openCredentials, sealCredentials, secretsOf } from "./credentials.js";
import { PlatformError, type PlatformHttp } from "./platform-http.js";
import { type AfterOrderHook, storePage } from "./store-page.js";
import type { SyncCursor } from "./store-platform.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";

export type SyncRun =
  | { kind: "synced"; newOrders: number }
  | { kind: "more"; newOrders: number }
  | { kind: "wait"; delayMs: number; newOrders: number }
  | { kind: "failed"; delayMs: number; error: string }
  | { kind: "broken"; error: string }
  | { kind: "idle" };

/** Longest pause between tries of a failing connection. */
const MAX_BACKOFF_MS = 60 * 60 * 1000;
/** Transient failures in a row before the connection is given up as broken. */
export const MAX_FAILURES_IN_A_ROW = 60;

export interface SyncOptions {
  http: PlatformHttp;
  signal: AbortSignal;
  afterOrder?: AfterOrderHook;
}

export async function syncConnection(
  deps: StoreSyncDeps,
  connectionId: string,
  options: SyncOptions,
): Promise<SyncRun> {
  let connection = await loadConnection(deps, connectionId);
  if (connection === undefined || connection.state !== "active") return { kind: "idle" };
  const key = deps.config.storeSync.tokenKey;
  if (key === null) {
    return markBroken(
      deps,
      connection.id,
      "STORE_TOKEN_KEY is not set on the worker: the stored credentials cannot be read",
    );
  }
  let newOrders = 0;
  /** What an error kept on the connection must not quote: every secret this run held. */
  const secrets: string[] = [];
  try {
    const credentials = openCredentials(key, connection.id, connection.credentials);
    secrets.push(...secretsOf(credentials));
    // A renewed token (or a host's quirk found out) is saved at once, for the next run.
    const client = platformClient(
      options.http,
      connection,
      credentials,
      shopifyAccess(deps.config),
      (c) => {
        secrets.push(...secretsOf(c));
        return deps.db.kysely
          .updateTable("store_connections")
          .set({ credentials: sealCredentials(key, connectionId, c), updated_at: deps.clock.now() })
          .where("id", "=", connectionId)
          .execute()
          .then(() => undefined);
      },
    );
    for (;;) {
      const cursor = JSON.parse(connection.cursor) as SyncCursor;
      const page = await client.fetchPage(cursor, options.signal);
      const stored = await storePage(deps, connection, page, options.afterOrder);
      if (!stored.stored) return { kind: "idle" }; // another run moved the cursor: it carries on
      newOrders += stored.newOrders;
      if (page.last) return { kind: "synced", newOrders };
      if (options.signal.aborted) return { kind: "more", newOrders };
      const fresh = await loadConnection(deps, connectionId);
      if (fresh === undefined || fresh.state !== "active") return { kind: "idle" };
      connection = fresh;
    }
  } catch (error) {
    if (options.signal.aborted && !(error instanceof PlatformError))
      return { kind: "more", newOrders };
    if (!(error instanceof PlatformError)) {
      const message = error instanceof Error ? error.message : String(error);
      if (message.startsWith("stored credentials")) return markBroken(deps, connectionId, message);
      throw error;
    }
    const { failure } = error;
    if (failure.kind === "wait") return { kind: "wait", delayMs: failure.delayMs, newOrders };
    // What failed in detail goes to the log only; the connection keeps the plain message.
    if (failure.detail !== undefined)
      deps.log.warn({ connectionId, error: failure.detail }, "store sync: call failed");
    const shown = withoutSecrets(failure.message, secrets);
    if (failure.kind === "broken") return markBroken(deps, connectionId, shown);
    return recordFailure(deps, connectionId, shown);
  }
}

/** The connection, unless it is gone or its account is closed. */
async function loadConnection(deps: StoreSyncDeps, id: string) {
  return deps.db.kysely
    .selectFrom("store_connections")
    .selectAll("store_connections")
    .where("id", "=", id)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom("accounts")
          .select("accounts.id")
          .whereRef("accounts.id", "=", "store_connections.account_id")
          .where("accounts.closed_at", "is", null),
      ),
    )
    .executeTakeFirst() as Promise<Selectable<StoreConnectionsTable> | undefined>;
}

async function markBroken(deps: StoreSyncDeps, id: string, error: string): Promise<SyncRun> {
  const now = deps.clock.now();
  await deps.db.kysely
    .updateTable("store_connections")
    .set({ state: "broken", last_error: error, updated_at: now })
    .where("id", "=", id)
    .where("state", "=", "active")
    .execute();
  deps.log.warn({ connectionId: id, error }, "store sync: connection broken");
  return { kind: "broken", error };
}

async function recordFailure(deps: StoreSyncDeps, id: string, error: string): Promise<SyncRun> {
  const now = deps.clock.now();
  const row = await deps.db.kysely
    .updateTable("store_connections")
    .set((eb) => ({ failures: eb("failures", "+", 1), last_error: error, updated_at: now }))
    .where("id", "=", id)
    .returning("failures")
    .executeTakeFirst();
  const failures = row?.failures ?? 1;
  if (failures >= MAX_FAILURES_IN_A_ROW) {
    return markBroken(
      deps,
      id,
      `gave up after ${failures} failed syncs in a row; the last: ${error}. Resume the connection once the store answers again`,
    );
  }
  const delayMs = Math.min(deps.config.storeSync.intervalMs * 2 ** (failures - 1), MAX_BACKOFF_MS);
  deps.log.warn({ connectionId: id, error, failures, delayMs }, "store sync failed; will retry");
  return { kind: "failed", delayMs, error };
}
