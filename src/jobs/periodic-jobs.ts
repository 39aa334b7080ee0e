/**
 * Periodic tasks (see the glossary in task.ts): when a worker starts it makes sure each periodic
 * task has its one keyed job. An existing row is left as it is (its next run is already
 * scheduled) unless it was given up, in which case it is revived to run now; a row under a live
 * lease is never touched.
 */
import type { Db } from "../db/connect.js";
import { newId } from "../lib/ids.js";
import type { TaskDefinition } from "./task.js";

export const PERIODIC_MAX_ATTEMPTS = 5;

export function periodicJobKey(task: string): string {
  return `periodic:${task}`;
}

export async function ensurePeriodicJobs(
  db: Db,
  tasks: ReadonlyArray<TaskDefinition<unknown>>,
  now: number,
): Promise<void> {
  for (const task of tasks) {
    if (task.periodic === undefined) continue;
    await db.kysely
      .insertInto("jobs")
      .values({
        id: newId(now),
        task: task.task,
        payload: "{}",
        job_key: periodicJobKey(task.task),
        run_at: now,
        attempts: 0,
        max_attempts: PERIODIC_MAX_ATTEMPTS,
        last_error: null,
        locked_by: null,
        locked_until: null,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc
          .column("job_key")
          .doUpdateSet({ attempts: 0, run_at: now, last_error: null, updated_at: now })
          .where((eb) =>
            eb.and([
              eb("jobs.attempts", ">=", eb.ref("jobs.max_attempts")),
              eb.or([eb("jobs.locked_until", "is", null), eb("jobs.locked_until", "<", now)]),
            ]),
          ),
      )
      .execute();
  }
}
