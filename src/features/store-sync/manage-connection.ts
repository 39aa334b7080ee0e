/**
 * Pausing, resuming and disconnecting a store connection, each with its audit event in the same
 * transaction. `accountId` scopes the change to one account (the dashboard); the CLI, run by the
 * operator, passes null. Resuming clears a broken state and its error and runs the sync now: with
 * credentials that are still refused it is broken again after one call. Disconnecting deletes the
 * connection and its credentials; orders and customers already synced stay.
 */
import type { Transaction } from "kysely";
import type { Database, StoreConnectionState } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { deleteConnections } from "./delete-connections.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";
import { enqueueStoreSync } from "./sync-task.js";

export type ConnectionChange = "pause" | "resume" | "disconnect";

export interface ChangedConnection {
  connectionId: string;
  state: StoreConnectionState | "disconnected";
}

export async function changeConnection(
  deps: Pick<StoreSyncDeps, "db" | "clock" | "jobs">,
  change: ConnectionChange,
  connectionId: string,
  accountId: string | null,
  actor: AuditActor,
): Promise<ChangedConnection> {
  const now = deps.clock.now();
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom("store_connections")
      .select(["id", "account_id", "state", "platform", "shop"])
      .where("id", "=", connectionId);
    if (accountId !== null) query = query.where("account_id", "=", accountId);
    const connection = await query.executeTakeFirst();
    if (connection === undefined) {
      throw new AppError("not_found", `No store connection ${connectionId}`);
    }
    const state = await apply(trx, change, connectionId, now);
    await recordAuditEvent(
      trx,
      {
        accountId: connection.account_id,
        actor,
        action:
          change === "pause"
            ? "store.paused"
            : change === "resume"
              ? "store.resumed"
              : "store.disconnected",
        subject: connectionId,
        details: { platform: connection.platform, shop: connection.shop },
      },
      now,
    );
    return { connectionId, state };
  });
  if (change === "resume") deps.jobs.notify();
  return result;
}

async function apply(
  trx: Transaction<Database>,
  change: ConnectionChange,
  connectionId: string,
  now: number,
): Promise<ChangedConnection["state"]> {
  if (change === "disconnect") {
    await deleteConnections(trx, [connectionId], now);
    return "disconnected";
  }
  if (change === "pause") {
    await trx
      .updateTable("store_connections")
      .set({ state: "paused", updated_at: now })
      .where("id", "=", connectionId)
      .execute();
    return "paused";
  }
  await trx
    .updateTable("store_connections")
    .set({ state: "active", failures: 0, last_error: null, updated_at: now })
    .where("id", "=", connectionId)
    .execute();
  await enqueueStoreSync(trx, connectionId, now);
  return "active";
}
