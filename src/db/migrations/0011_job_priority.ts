import { type Kysely, sql } from "kysely";

/**
 * Job priority: 0 for live work (an order from the API, an alert), 1 for a backfill (the
 * enrichments of an imported order history). Workers claim every due live job before any due
 * backfill job, so a store's history scanned in the background never delays a new customer.
 *
 * The claim's index becomes (priority, run_at, id), still partial on jobs that may still run
 * (migration 0005). A claim asks one priority at a time (`priority = ?`, `run_at <= now`,
 * ordered by run_at, id), so each walk starts at that priority's oldest due job and stops at
 * its first job not yet due: it never passes running, waiting or given-up jobs, as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("jobs")
    .addColumn("priority", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex("jobs_due_priority_idx")
    .on("jobs")
    .columns(["priority", "run_at", "id"])
    .where(sql.ref("attempts"), "<", sql.ref("max_attempts"))
    .execute();
  await db.schema.dropIndex("jobs_due_idx").execute();
}
