import { type Kysely, sql } from "kysely";

/**
 * The claim's index: only jobs that may still run (attempts < max_attempts), by run_at. Given-up
 * jobs stay in the table for inspection and leased jobs now carry run_at = the lease's end
 * (claim-jobs.ts), so a claim walks due jobs only, however many are running or given up.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex("jobs_due_idx")
    .on("jobs")
    .columns(["run_at", "id"])
    .where(sql.ref("attempts"), "<", sql.ref("max_attempts"))
    .execute();
  await db.schema.dropIndex("jobs_run_at_idx").execute();
}
