/**
 * The sync job: one per connection, keyed `store-sync:<connection id>`, so the queue's unique job
 * key and lease make sure no two runs of one connection overlap, on any number of nodes. Each run
 * ends with `again` (the row is rescheduled, never deleted while the connection exists): after
 * STORE_SYNC_INTERVAL_SECONDS when up to date (STORE_RECONCILE_INTERVAL_SECONDS while the
 * connection's webhooks deliver: features/store-webhooks), at once when the lease ran out mid-sync, after the
 * platform's wait, or after a backoff. A paused or broken connection's job only looks at the row
 * once an interval (no call to the platform), so resuming needs no race-prone job creation.
 * Once the connection is gone (disconnected, or its account closed) the run ends the job.
 */
import type { Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { TaskDefinition } from "../../jobs/task.js";
import { ensureConnectionJobs } from "./ensure-connection-jobs.js";
import { platformHttpFor } from "./platform-http.js";
import { syncConnection } from "./run-sync.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";

export const STORE_SYNC_TASK = "store-sync";
const Payload = z.object({ connectionId: z.string().min(1) });
type Payload = z.infer<typeof Payload>;

/** Attempts that may throw in a row (the database is down) before the job is given up. */
const MAX_ATTEMPTS = 20;

export function storeSyncJobKey(connectionId: string): string {
  return `${STORE_SYNC_TASK}:${connectionId}`;
}

/** Enqueues (or moves to now) the connection's sync job, in the caller's transaction. */
export async function enqueueStoreSync(
  trx: Transaction<Database>,
  connectionId: string,
  now: number,
): Promise<void> {
  await enqueueJob(
    trx,
    {
      task: STORE_SYNC_TASK,
      payload: { connectionId },
      jobKey: storeSyncJobKey(connectionId),
      maxAttempts: MAX_ATTEMPTS,
    },
    now,
  );
}

export function createStoreSyncTask(): TaskDefinition<Payload, StoreSyncDeps> {
  return {
    task: STORE_SYNC_TASK,
    payload: Payload,
    async handle(deps, payload, ctx) {
      const http = platformHttpFor(deps.config, deps.http);
      const intervalMs = deps.config.storeSync.intervalMs;
      try {
        const run = await syncConnection(deps, payload.connectionId, { http, signal: ctx.signal });
        switch (run.kind) {
          case "synced":
          case "broken":
          case "idle": {
            const webhooks = await webhooksOf(deps, payload.connectionId);
            if (webhooks === undefined) return { kind: "done" };
            // Webhooks that deliver bring the orders: polling only reconciles, far less often.
            const reconcile = webhooks === "active" && run.kind === "synced";
            return {
              kind: "again",
              delayMs: reconcile ? deps.config.storeSync.reconcileIntervalMs : intervalMs,
            };
          }
          case "more":
            return { kind: "again", delayMs: 0 };
          case "wait":
          case "failed":
            return { kind: "again", delayMs: run.delayMs };
        }
      } finally {
        await http.close();
      }
    },
    // A worker starting makes sure every connection has its job (one given up while the
    // database was away is revived), as periodic tasks do.
    async onWorkerStart(deps) {
      await ensureConnectionJobs(deps, STORE_SYNC_TASK, storeSyncJobKey, enqueueStoreSync);
    },
  };
}

/** The connection's webhook health; undefined once it is gone or its account closed. */
async function webhooksOf(deps: StoreSyncDeps, connectionId: string) {
  const row = await deps.db.kysely
    .selectFrom("store_connections")
    .innerJoin("accounts", "accounts.id", "store_connections.account_id")
    .select("store_connections.webhooks")
    .where("store_connections.id", "=", connectionId)
    .where("accounts.closed_at", "is", null)
    .executeTakeFirst();
  return row?.webhooks;
}
