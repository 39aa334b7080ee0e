/**
 * The `store-webhooks` job: one per connection, keyed `store-webhooks:<connection id>`, that
 * keeps its subscriptions in place (ensure-webhooks.ts) and lets old deliveries go
 * (fold-events.ts). It runs when the store is connected,
 * then every STORE_RECONCILE_INTERVAL_SECONDS while the webhooks deliver or are off (an address
 * set later, a key given more rights), and every FAILING_CHECK_MS while they are failing. Once
 * the connection is gone the job ends. A worker starting makes sure every connection has one.
 */
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { TaskDefinition } from "../../jobs/task.js";
import { ensureConnectionJobs } from "../store-sync/ensure-connection-jobs.js";
import { platformHttpFor } from "../store-sync/platform-http.js";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";
import { ensureWebhooks } from "./ensure-webhooks.js";
import { foldOldEvents } from "./fold-events.js";

export const WEBHOOK_CHECK_TASK = "store-webhooks";
const Payload = z.object({ connectionId: z.string().min(1) });
type Payload = z.infer<typeof Payload>;

/** How soon failing webhooks are looked at again. */
export const FAILING_CHECK_MS = 5 * 60 * 1000;

export function webhookCheckJobKey(connectionId: string): string {
  return `${WEBHOOK_CHECK_TASK}:${connectionId}`;
}

export async function enqueueWebhookCheck(
  db: Kysely<Database> | Transaction<Database>,
  connectionId: string,
  runAt: number,
  now: number,
): Promise<void> {
  await enqueueJob(
    db,
    {
      task: WEBHOOK_CHECK_TASK,
      payload: { connectionId },
      jobKey: webhookCheckJobKey(connectionId),
      runAt,
      maxAttempts: 20,
    },
    now,
  );
}

export function createWebhookCheckTask(): TaskDefinition<Payload, StoreSyncDeps> {
  return {
    task: WEBHOOK_CHECK_TASK,
    payload: Payload,
    async handle(deps, payload, ctx) {
      const http = platformHttpFor(deps.config, deps.http);
      try {
        const status = await ensureWebhooks(deps, http, payload.connectionId, ctx.signal);
        if (status === null) return { kind: "done" };
        await foldOldEvents(deps, payload.connectionId);
        const delayMs =
          status.webhooks === "failing"
            ? Math.min(FAILING_CHECK_MS, deps.config.storeSync.reconcileIntervalMs)
            : deps.config.storeSync.reconcileIntervalMs;
        return { kind: "again", delayMs };
      } finally {
        await http.close();
      }
    },
    async onWorkerStart(deps) {
      await ensureConnectionJobs(deps, WEBHOOK_CHECK_TASK, webhookCheckJobKey, (trx, id, now) =>
        enqueueWebhookCheck(trx, id, now, now),
      );
    },
  };
}
