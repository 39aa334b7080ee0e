/**
 * A worker starting makes sure every store connection has its keyed job of a task (the sync,
 * the webhook check), as periodic tasks do: one given up while the database was away is revived,
 * one never made (a connection from before the task existed) is made.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";

export async function ensureConnectionJobs(
  deps: Pick<StoreSyncDeps, "db" | "clock" | "jobs">,
  task: string,
  jobKeyOf: (connectionId: string) => string,
  enqueue: (trx: Transaction<Database>, connectionId: string, now: number) => Promise<void>,
): Promise<void> {
  const connections = await deps.db.kysely.selectFrom("store_connections").select("id").execute();
  const jobs = await deps.db.kysely
    .selectFrom("jobs")
    .select(["job_key", "attempts", "max_attempts"])
    .where("task", "=", task)
    .execute();
  const live = new Set(jobs.filter((j) => j.attempts < j.max_attempts).map((j) => j.job_key));
  const missing = connections.filter((c) => !live.has(jobKeyOf(c.id)));
  if (missing.length === 0) return;
  const now = deps.clock.now();
  await deps.db.kysely.transaction().execute(async (trx) => {
    for (const c of missing) await enqueue(trx, c.id, now);
  });
  deps.jobs.notify();
}
