/**
 * Fair queues: among due backfill jobs, queue keys (accounts) take turns. Live jobs, claimed
 * before any backfill, stay first come first served: a tag would double the cost of a
 * single-job enqueue on SQLite's order path (enqueue-job.ts).
 *
 * Start-time fair queuing (Goyal, Vin and Cheng, 1996), with every job costing one: a job
 * enqueued due at once gets the tag max(head, last) + 1, where `head` is the smallest tag still
 * waiting at its priority (the job whose turn it is) and `last` the largest tag its own queue key
 * has waiting there; claims take the smallest tags first (claim-jobs.ts). An account that queues
 * 20,000 jobs at once holds tags head+1 … head+20,000; another account's job queued a moment
 * later gets head+1 (it has nothing waiting) and is claimed next, then they alternate. Ties go to
 * the older id.
 *
 * Both lookups are the first entry of a partial index (migration 0029): `head` of
 * (priority, fair_tag, id), `last` of (queue_key, priority, fair_tag), inside the one statement
 * that writes the job, so a single enqueue stays one statement. Two transactions enqueueing at
 * once for one key may draw the same tag: a tie, which costs nothing but strict alternation.
 *
 * Only a job waiting for its first turn carries a tag. A claim clears it, and a job that waits
 * for a time (scheduled, backing off after a failure, retried by hand) has none: it is claimed
 * by run_at as before, ahead of the tagged ones, as it has waited its turn already.
 */
import { type RawBuilder, sql } from "kysely";

/** The tag's SQL, through a template tag: Kysely's `sql` (bound values) or `String.raw` (text). */
function tagSql<V, R>(
  tag: (strings: TemplateStringsArray, ...values: V[]) => R,
  queueKey: V,
  priority: V,
): R {
  return tag`(coalesce((select max(t) from (
    select (select fair_tag from jobs where priority = ${priority} and fair_tag is not null
      order by priority, fair_tag limit 1) as t
    union all
    select (select fair_tag from jobs where queue_key = ${queueKey} and priority = ${priority}
      and fair_tag is not null order by queue_key desc, priority desc, fair_tag desc limit 1)
  ) as tags), 0) + 1)`;
}

/** The tag for a job of `priority` queued under `queueKey` (SQL values or column refs). */
export function fairTagSql(queueKey: RawBuilder<unknown>, priority: RawBuilder<unknown>) {
  return tagSql<RawBuilder<unknown>, RawBuilder<number>>(sql, queueKey, priority);
}

/** The same as SQL text, for statements written by hand (orders/submission-statement-sql.ts). */
export function fairTagText(queueKey: string, priority: string): string {
  return tagSql(String.raw, queueKey, priority);
}
