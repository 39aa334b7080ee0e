/**
 * The queue as an operator sees it, per task, read at scrape time (one GROUP BY over `jobs`,
 * which holds only jobs not yet done: finished ones are deleted):
 * - due: may run now and nobody holds it (a job whose worker died counts once its lease ends);
 * - running: held under a live lease;
 * - scheduled: waiting for its backoff or a provider's Retry-After;
 * - given_up: attempts exhausted and not held (kept for inspection and `velvet jobs retry`).
 * `oldestDueMs` is when the longest-waiting due job became due: a growing age means the
 * workers are not keeping up (or none is running).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connect.js";

export interface JobStats {
  task: string;
  due: number;
  running: number;
  scheduled: number;
  givenUp: number;
  oldestDueMs: number | null;
}

export async function readJobStats(db: Db, now: number): Promise<JobStats[]> {
  const givenUp = sql`attempts >= max_attempts and locked_by is null`;
  const running = sql`locked_by is not null and locked_until >= ${now}`;
  const due = sql`attempts < max_attempts and run_at <= ${now} and (locked_until is null or locked_until < ${now})`;
  const result = await sql<{
    task: string;
    total: number | string;
    given_up: number | string | null;
    running: number | string | null;
    due: number | string | null;
    oldest_due: number | string | null;
  }>`select task, count(*) as total,
      sum(case when ${givenUp} then 1 else 0 end) as given_up,
      sum(case when ${running} then 1 else 0 end) as running,
      sum(case when ${due} then 1 else 0 end) as due,
      min(case when ${due} then run_at end) as oldest_due
    from jobs group by task order by task`.execute(db.kysely);
  return result.rows.map((r) => {
    const n = (v: number | string | null) => Number(v ?? 0);
    const counted = { due: n(r.due), running: n(r.running), givenUp: n(r.given_up) };
    return {
      task: r.task,
      ...counted,
      scheduled: n(r.total) - counted.due - counted.running - counted.givenUp,
      oldestDueMs: r.oldest_due === null ? null : Number(r.oldest_due),
    };
  });
}
