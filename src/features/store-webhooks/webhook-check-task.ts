/**
 * The `store-webhooks` job: one per connection, keyed `store-webhooks:<connection id>`, that
 * keeps its subscriptions in place (ensure-webhooks.ts). It runs when the store is connected,
 * then every STORE_RECONCILE_INTERVAL_SECONDS while the webhooks deliver or are off (an address
 * set later, a key given more rights), and every FAILING_CHECK_MS while they are failing. Once
 * the connection is gone the job ends. A worker starting makes sure every connection has one.
 */
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { TaskDefinition } from "../../jobs/task.js";
import { createPlatformHttp } from "../store-sync/platform-http.js";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";
import { ensureWebhooks } from "./ensure-webhooks.js";

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
      const http = createPlatformHttp(
        {
          allowPrivate: deps.config.alerts.allowPrivateWebhooks,
          timeoutMs: deps.config.enrichment.timeoutMs,
        },
        deps.http,
      );
      try {
        const status = await ensureWebhooks(deps, http, payload.connectionId, ctx.signal);
        if (status === null) return { kind: "done" };
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
      const connections = await deps.db.kysely
        .selectFrom("store_connections")
        .select("id")
        .execute();
      const jobs = await deps.db.kysely
        .selectFrom("jobs")
        .select(["job_key", "attempts", "max_attempts"])
        .where("task", "=", WEBHOOK_CHECK_TASK)
        .execute();
      const live = new Set(jobs.filter((j) => j.attempts < j.max_attempts).map((j) => j.job_key));
      const missing = connections.filter((c) => !live.has(webhookCheckJobKey(c.id)));
      if (missing.length === 0) return;
      const now = deps.clock.now();
      await deps.db.kysely.transaction().execute(async (trx) => {
        for (const c of missing) await enqueueWebhookCheck(trx, c.id, now, now);
      });
      deps.jobs.notify();
    },
  };
}
