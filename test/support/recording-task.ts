/**
 * A test task for worker processes: it records each start and each completion as a row in
 * `job_runs` (a table the test creates), sleeping in between, so a test can kill the process
 * mid-job and count what really happened. The sleep honours the job's AbortSignal.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type Kysely, sql } from "kysely";
import { z } from "zod";
import type { Database } from "../../src/db/schema.js";
import type { TaskDefinition } from "../../src/jobs/task.js";

export const RECORDING_TASK = "record-run";

const Payload = z.object({ sleepMs: z.number().int().min(0) });
type Payload = z.infer<typeof Payload>;

export interface JobRun {
  job_id: string;
  event: "start" | "done";
  pid: number;
  at: number;
}

export async function createJobRunsTable(db: Kysely<Database>): Promise<void> {
  await sql`create table job_runs (job_id text not null, event text not null, pid integer not null, at bigint not null)`.execute(
    db,
  );
}

export async function jobRuns(db: Kysely<Database>): Promise<JobRun[]> {
  const result =
    await sql<JobRun>`select job_id, event, pid, at from job_runs order by at, event desc`.execute(
      db,
    );
  return result.rows.map((r) => ({ ...r, pid: Number(r.pid), at: Number(r.at) }));
}

async function record(db: Kysely<Database>, jobId: string, event: JobRun["event"]): Promise<void> {
  await sql`insert into job_runs (job_id, event, pid, at) values (${jobId}, ${event}, ${process.pid}, ${Date.now()})`.execute(
    db,
  );
}

export const recordingTask: TaskDefinition<Payload> = {
  task: RECORDING_TASK,
  payload: Payload,
  handle: async (deps, payload, ctx) => {
    await record(deps.db.kysely, ctx.jobId, "start");
    await sleep(payload.sleepMs, undefined, { signal: ctx.signal });
    await record(deps.db.kysely, ctx.jobId, "done");
    return { kind: "done" };
  },
};
