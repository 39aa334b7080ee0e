/**
 * Deleting store connections with their sealed credentials, the deliveries their stores pushed
 * (store_events), and their sync jobs, in the
 * caller's transaction: a disconnection (manage-connection.ts) or an account's closing
 * (privacy/close-account.ts). A job a worker runs at that moment is left to it: that run finds
 * no connection, stores nothing and ends its job (sync-task.ts). Orders and customers already
 * synced are not touched here.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { storeSyncJobKey } from "./sync-task.js";

export async function deleteConnections(
  trx: Transaction<Database>,
  connectionIds: readonly string[],
  now: number,
): Promise<void> {
  if (connectionIds.length === 0) return;
  await trx.deleteFrom("store_events").where("connection_id", "in", connectionIds).execute();
  await trx.deleteFrom("store_connections").where("id", "in", connectionIds).execute();
  await trx
    .deleteFrom("jobs")
    .where("job_key", "in", connectionIds.map(storeSyncJobKey))
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<", now)]))
    .execute();
}

/** Every connection of the account, deleted as above; how many there were. */
export async function deleteAccountConnections(
  trx: Transaction<Database>,
  accountId: string,
  now: number,
): Promise<number> {
  const rows = await trx
    .selectFrom("store_connections")
    .select("id")
    .where("account_id", "=", accountId)
    .execute();
  await deleteConnections(
    trx,
    rows.map((r) => r.id),
    now,
  );
  return rows.length;
}
