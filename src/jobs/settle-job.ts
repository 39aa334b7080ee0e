/**
 * Settling a claimed job: the writes a worker makes once an attempt has an outcome. Each one
 * matches the lease it was given (job id, worker id, attempt number) and reports whether it
 * still held it: a worker whose lease expired and whose job was re-claimed (or re-enqueued, or
 * released) changes nothing, so its late `done` cannot delete a job another worker is running.
 */
import type { Db } from "../db/connect.js";
import { preparedQuery } from "../db/prepared-query.js";
import type { ClaimedJob } from "./claim-jobs.js";

export interface Lease {
  jobId: string;
  workerId: string;
  /** The row's `attempts` while this worker holds it. */
  attempts: number;
}

export function leaseOf(job: ClaimedJob): Lease {
  return { jobId: job.id, workerId: job.locked_by ?? "", attempts: job.attempts };
}

/** last_error is for people reading it; a runaway message must not bloat the row. */
const MAX_ERROR_LENGTH = 2000;

export function clipError(error: string): string {
  return error.length > MAX_ERROR_LENGTH ? `${error.slice(0, MAX_ERROR_LENGTH - 1)}…` : error;
}

function held(db: Db, lease: Lease) {
  return db.kysely
    .updateTable("jobs")
    .where("id", "=", lease.jobId)
    .where("locked_by", "=", lease.workerId)
    .where("attempts", "=", lease.attempts);
}

function changed(result: { numUpdatedRows?: bigint; numDeletedRows?: bigint }): boolean {
  return (result.numUpdatedRows ?? result.numDeletedRows ?? 0n) > 0n;
}

/** `done`: the job is finished and its row goes. */
export async function deleteJob(db: Db, lease: Lease): Promise<boolean> {
  const row = { id: lease.jobId, locked_by: lease.workerId, attempts: lease.attempts };
  // SQLite: a transaction of one statement joins the group commit (db/sqlite-driver.ts) instead
  // of forcing a commit of its own for every finished job. PostgreSQL: the statement alone, one
  // round trip where BEGIN and COMMIT around it made three.
  const deleted =
    db.dialect === "sqlite"
      ? await db.kysely.transaction().execute((trx) => deleteHeldJob.execute(trx, row))
      : await deleteHeldJob.execute(db.kysely, row);
  return deleted.length > 0;
}

/** Prepared once (db/prepared-query.ts): every finished job runs it. */
const deleteHeldJob = preparedQuery(
  ["id", "locked_by", "attempts"],
  (db, v: { id: string; locked_by: string; attempts: number }) =>
    db
      .deleteFrom("jobs")
      .where("id", "=", v.id)
      .where("locked_by", "=", v.locked_by)
      .where("attempts", "=", v.attempts)
      .returning("id"),
);

/** `retry` with attempts left: unlock and run again at `runAt`. */
export async function rescheduleJob(
  db: Db,
  lease: Lease,
  props: { runAt: number; error: string; now: number },
): Promise<boolean> {
  const result = await held(db, lease)
    .set({
      run_at: props.runAt,
      last_error: clipError(props.error),
      locked_by: null,
      locked_until: null,
      updated_at: props.now,
    })
    .executeTakeFirst();
  return changed(result);
}

/**
 * The first half of giving up when the task has an `onGiveUp`: the job is marked exhausted but
 * stays leased while `onGiveUp` runs, so if this process dies now another worker finds it
 * abandoned and calls `onGiveUp` again (at least once), and nobody runs the handler meanwhile.
 * The lease then names attempts = max_attempts.
 */
export async function holdForGiveUp(
  db: Db,
  lease: Lease,
  props: { error: string; now: number; leaseMs: number },
): Promise<boolean> {
  const result = await held(db, lease)
    .set((eb) => ({
      attempts: eb.ref("max_attempts"),
      last_error: clipError(props.error),
      locked_until: props.now + props.leaseMs,
      updated_at: props.now,
    }))
    .executeTakeFirst();
  return changed(result);
}

/** A permanent failure: never claimed again, kept with its error until re-enqueued. */
export async function failJob(
  db: Db,
  lease: Lease,
  props: { error: string; now: number },
): Promise<boolean> {
  const result = await held(db, lease)
    .set((eb) => ({
      attempts: eb.ref("max_attempts"),
      last_error: clipError(props.error),
      locked_by: null,
      locked_until: null,
      updated_at: props.now,
    }))
    .executeTakeFirst();
  return changed(result);
}

/**
 * Unlock the job to run again at `runAt` without counting this attempt: `wait` (with its
 * reason kept as last_error) and, at shutdown, release (due now, last_error unchanged).
 */
export async function postponeJob(
  db: Db,
  lease: Lease,
  props: { runAt: number; now: number; reason?: string },
): Promise<boolean> {
  const result = await held(db, lease)
    .set((eb) => ({
      attempts: eb("attempts", "-", 1),
      run_at: props.runAt,
      ...(props.reason === undefined ? {} : { last_error: clipError(props.reason) }),
      locked_by: null,
      locked_until: null,
      updated_at: props.now,
    }))
    .executeTakeFirst();
  return changed(result);
}

/** `again`: the run is over; the same row runs again at `runAt` as a fresh job. */
export async function repeatJob(
  db: Db,
  lease: Lease,
  props: { runAt: number; now: number },
): Promise<boolean> {
  const result = await held(db, lease)
    .set({
      attempts: 0,
      run_at: props.runAt,
      last_error: null,
      locked_by: null,
      locked_until: null,
      updated_at: props.now,
    })
    .executeTakeFirst();
  return changed(result);
}

/** Shutdown: hand the job back, due now; the interrupted attempt does not count. */
export function releaseJob(db: Db, lease: Lease, now: number): Promise<boolean> {
  return postponeJob(db, lease, { runAt: now, now });
}
