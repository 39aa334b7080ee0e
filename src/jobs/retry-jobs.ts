/**
 * Retrying what gave up (`velvet jobs retry`, Settings → System): the job row is revived as if
 * new (due now, attempts 0, no error, no lease) and, in the same transaction, the task's
 * `onRetry` undoes what its `onGiveUp` marked (a `failed` enrichment or alert is `pending`
 * again), so the data never says "failed" while its job is about to run, nor the reverse.
 * Only given-up jobs are touched: one that is due, running or scheduled is left alone.
 */
import type { Transaction } from "kysely";
import type { Db } from "../db/connect.js";
import type { Database } from "../db/schema.js";
import { parsePayload } from "./run-job.js";
import type { TaskDefinition } from "./task.js";

export type RetryTarget = { id: string } | { jobKey: string } | { allFailed: true; task?: string };

/** Returns the ids of the jobs revived (empty when none matched a given-up job). */
export async function retryJobs(
  db: Db,
  tasks: ReadonlyArray<TaskDefinition<unknown>>,
  target: RetryTarget,
  now: number,
): Promise<string[]> {
  const byTask = new Map(tasks.map((t) => [t.task, t]));
  return db.kysely.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom("jobs")
      .select(["id", "task", "payload"])
      .where((eb) => eb("attempts", ">=", eb.ref("max_attempts")))
      .where("locked_by", "is", null);
    if ("id" in target) query = query.where("id", "=", target.id);
    else if ("jobKey" in target) query = query.where("job_key", "=", target.jobKey);
    else if (target.task !== undefined) query = query.where("task", "=", target.task);
    const failed = await query.orderBy("id").execute();
    const revived: string[] = [];
    for (const job of failed) {
      if (await revive(trx, job.id, now)) {
        await undoGiveUp(trx, byTask.get(job.task), job.payload, now);
        revived.push(job.id);
      }
    }
    return revived;
  });
}

async function revive(trx: Transaction<Database>, id: string, now: number): Promise<boolean> {
  const result = await trx
    .updateTable("jobs")
    .set({
      attempts: 0,
      run_at: now,
      last_error: null,
      locked_by: null,
      locked_until: null,
      updated_at: now,
    })
    .where("id", "=", id)
    .where((eb) => eb("attempts", ">=", eb.ref("max_attempts")))
    .where("locked_by", "is", null)
    .executeTakeFirst();
  return (result.numUpdatedRows ?? 0n) > 0n;
}

async function undoGiveUp(
  trx: Transaction<Database>,
  task: TaskDefinition<unknown> | undefined,
  payload: string,
  now: number,
): Promise<void> {
  if (task?.onRetry === undefined) return;
  const parsed = parsePayload(task, payload);
  // A malformed payload has nothing to undo; the job will give up again and say why.
  if (parsed.ok) await task.onRetry(trx, parsed.value, now);
}
