import { type Kysely, PostgresAdapter, sql } from "kysely";

/**
 * Fair queues and a lean jobs table.
 *
 * `queue_key`: whose turn a job waits for, the account's id for work done for an account ('' for
 * the shared queue of everything else). `fair_tag`: a backfill job enqueued to run now carries a
 * start-time fair queuing tag, max(the queue head's tag, the queue key's last tag) + 1 within its
 * priority (jobs/fair-tag.ts), and a claim walks (priority, fair_tag, id): accounts take turns,
 * one job each per round, however many one of them queued. The tag is NULL for every job not
 * waiting its first turn (scheduled for later, leased, rescheduled after a failure, retried by
 * hand): those are walked by (priority, run_at, id) as before, now only over untagged rows, so
 * each walk is an index range that stops at its first job not due.
 *
 * PostgreSQL autovacuum for `jobs`, a table of an insert, an update and a delete per job: its
 * live rows swing from none to a backfill's hundreds of thousands, and its dead rows are what
 * slows the claim's index walks. (The formula: a table is vacuumed when its dead tuples exceed
 * autovacuum_vacuum_threshold + autovacuum_vacuum_scale_factor × reltuples, PostgreSQL docs,
 * "Routine Vacuuming", 25.1.6 The Autovacuum Daemon; per table as storage parameters, CREATE
 * TABLE, "Storage Parameters".)
 *   - autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000: vacuum after a fixed
 *     5,000 dead rows, not after 20 % of whatever the backlog happened to be (the default 0.2 ×
 *     reltuples waits for 20,000 dead rows behind a 100,000-job backlog, just when claims run
 *     most often).
 *   - autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 10000: the
 *     same for insert-driven vacuums (PostgreSQL 13+), which set the visibility map of a backlog.
 *   - autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000: statistics follow
 *     the backlog's swings, so the planner knows the table's size.
 *   - autovacuum_vacuum_cost_delay = 0: the table is small when kept lean, and a throttled vacuum
 *     (the default 2 ms sleep per 200 cost units since PostgreSQL 12, "Cost-based Vacuum Delay")
 *     falls behind a queue that produces dead rows faster than it sleeps.
 * No fillfactor: an update is HOT only when it changes no indexed column ("Heap-Only Tuples",
 * PostgreSQL docs, Database Physical Storage), and every update of a job (claim, reschedule,
 * release) changes run_at or fair_tag, which the claim's indexes hold; spare page room would
 * buy nothing. SQLite has no such setting: a deleted row's page goes to the file's free list and
 * is reused by the next inserts, so the file grows to the largest backlog and stays there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("jobs")
    .addColumn("queue_key", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema.alterTable("jobs").addColumn("fair_tag", "bigint").execute();
  await db.schema
    .createIndex("jobs_fair_idx")
    .on("jobs")
    .columns(["priority", "fair_tag", "id"])
    .where(sql.ref("fair_tag"), "is not", null)
    .execute();
  await db.schema
    .createIndex("jobs_queue_tag_idx")
    .on("jobs")
    .columns(["queue_key", "priority", "fair_tag"])
    .where(sql.ref("fair_tag"), "is not", null)
    .execute();
  await db.schema
    .createIndex("jobs_due_untagged_idx")
    .on("jobs")
    .columns(["priority", "run_at", "id"])
    .where(sql<boolean>`attempts < max_attempts and fair_tag is null`)
    .execute();
  await db.schema.dropIndex("jobs_due_priority_idx").execute();
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table jobs set (
      autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 5000,
      autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 10000,
      autovacuum_analyze_scale_factor = 0, autovacuum_analyze_threshold = 5000,
      autovacuum_vacuum_cost_delay = 0)`.execute(db);
  }
}
