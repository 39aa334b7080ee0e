/**
 * Claiming: leasing jobs to one worker in a single UPDATE … RETURNING, so two workers can never
 * both come away with the same job.
 *
 * PostgreSQL picks the rows with `FOR UPDATE SKIP LOCKED`: concurrent claimers skip each
 * other's rows instead of queueing behind them, and a row another claimer changed meanwhile is
 * re-checked against the WHERE clause before it is taken. SQLite has one writer at a time; the
 * statement runs in a BEGIN IMMEDIATE transaction so it waits (busy_timeout) for the write lock
 * rather than failing on a stale read snapshot when another process wrote in between.
 *
 * A claim also moves `run_at` to the lease's end: a leased job is then simply not due yet, so
 * the claim's walk over the due-jobs index (migration 0005) never passes the hundreds of jobs
 * that are running, and a job whose worker died becomes due exactly when its lease expires.
 *
 * Priorities (migration 0011): live jobs (0) are claimed before backfill jobs (1). One claim
 * asks each priority in turn, in one transaction on SQLite, with `priority = ?`: live first,
 * backfill only for the room left.
 *
 * Fair queues (migration 0029, fair-tag.ts): within a priority, first the untagged jobs that
 * are due (scheduled, backing off, released, retried), a range of (priority, run_at, id) over
 * untagged rows; then jobs waiting for their first turn, a range of (priority, fair_tag, id),
 * where accounts alternate. A claim clears the tag, so a leased job leaves the fair walk.
 */
import type {
  Expression,
  ExpressionBuilder,
  Kysely,
  Selectable,
  SqlBool,
  Transaction,
} from "kysely";
import type { Db } from "../db/connect.js";
import type { Database, JobsTable } from "../db/schema.js";

export type ClaimedJob = Selectable<JobsTable>;

export interface ClaimRequest {
  workerId: string;
  limit: number;
  now: number;
  leaseMs: number;
}

type JobsWhere = (eb: ExpressionBuilder<Database, "jobs">, priority: number) => Expression<SqlBool>;

/** One index walk: which rows, in which order. */
interface Walk {
  where: JobsWhere;
  order: "run_at" | "fair_tag";
}

/** Job priorities, claimed in this order. */
export const JOB_PRIORITIES = { live: 0, backfill: 1 } as const;
export type JobPriority = keyof typeof JOB_PRIORITIES;
const PRIORITY_ORDER = Object.values(JOB_PRIORITIES);

/**
 * Claims up to `limit` due jobs, live ones first, then by oldest `run_at`, and counts the
 * attempt.
 */
export function claimJobs(db: Db, req: ClaimRequest): Promise<ClaimedJob[]> {
  return claimWhere(db, req, true, [
    {
      order: "run_at",
      where: (eb, priority) =>
        eb.and([
          eb("priority", "=", priority),
          eb("run_at", "<=", req.now),
          eb("attempts", "<", eb.ref("max_attempts")),
          eb("fair_tag", "is", null),
          eb.or([eb("locked_until", "is", null), eb("locked_until", "<", req.now)]),
        ]),
    },
    {
      // A tagged job is due and free by construction (enqueue-job.ts tags only those).
      order: "fair_tag",
      where: (eb, priority) =>
        eb.and([eb("priority", "=", priority), eb("fair_tag", "is not", null)]),
    },
  ]);
}

/**
 * Claims jobs whose last attempt's worker died (attempts exhausted, lease expired) so that one
 * worker can give them up; without this they would stay locked and unexplained forever. The
 * attempt count is left as it is: nothing will run.
 */
export function claimAbandonedJobs(db: Db, req: ClaimRequest): Promise<ClaimedJob[]> {
  return claimWhere(db, req, false, [
    {
      order: "run_at",
      where: (eb, priority) =>
        eb.and([
          eb("priority", "=", priority),
          eb("attempts", ">=", eb.ref("max_attempts")),
          eb("locked_by", "is not", null),
          eb("locked_until", "<", req.now),
        ]),
    },
  ]);
}

async function claimWhere(
  db: Db,
  req: ClaimRequest,
  countAttempt: boolean,
  walks: Walk[],
): Promise<ClaimedJob[]> {
  if (req.limit <= 0) return [];
  const runAll = async (q: Kysely<Database> | Transaction<Database>) => {
    const claimed: ClaimedJob[] = [];
    for (const priority of PRIORITY_ORDER) {
      for (const walk of walks) {
        const room = req.limit - claimed.length;
        if (room <= 0) return claimed;
        // RETURNING has no order: each walk's jobs oldest first (ids are time-ordered).
        const rows = await run(q, walk, priority, room);
        claimed.push(...rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
      }
    }
    return claimed;
  };
  const run = (
    q: Kysely<Database> | Transaction<Database>,
    walk: Walk,
    priority: number,
    limit: number,
  ) => {
    let picked = q
      .selectFrom("jobs")
      .select("id")
      .where((eb) => walk.where(eb, priority))
      .orderBy("priority")
      .orderBy(walk.order)
      .orderBy("id")
      .limit(limit);
    if (db.dialect === "postgres") picked = picked.forUpdate().skipLocked();
    return q
      .updateTable("jobs")
      .set((eb) => ({
        locked_by: req.workerId,
        locked_until: req.now + req.leaseMs,
        run_at: req.now + req.leaseMs,
        fair_tag: null,
        attempts: countAttempt ? eb("attempts", "+", 1) : eb.ref("attempts"),
        updated_at: req.now,
      }))
      .where("id", "in", picked)
      .returningAll()
      .execute();
  };
  const claimed =
    db.dialect === "postgres"
      ? await runAll(db.kysely)
      : await db.kysely.transaction().execute(runAll);
  return claimed;
}
