/**
 * Migration 0029 on a database that already holds jobs, on both engines: they keep their place
 * (no tag: claimed by run_at, as before), new jobs queue by account, and on PostgreSQL the jobs
 * table carries its autovacuum settings.
 */
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { migrationsBefore, upgradeBeforeTests } from "../../../test/support/migration-upgrade.js";
import { claimJobs } from "../../jobs/claim-jobs.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";
import type { Database } from "../schema.js";

const BEFORE = migrationsBefore(MIGRATIONS, "0029_fair_queues");
const NOW = 1_800_000_000_000;

async function seed(k: Kysely<Database>) {
  for (const [id, runAt] of [
    ["old-due", NOW - 1000],
    ["old-later", NOW + 60_000],
  ] as const) {
    await sql`insert into jobs (id, task, payload, job_key, run_at, attempts, max_attempts,
        priority, created_at, updated_at)
      values (${id}, 't', '{}', ${id}, ${runAt}, 0, 3, 1, ${NOW - 5000}, ${NOW - 5000})`.execute(k);
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`migration 0029 on existing jobs (${engine.name})`, () => {
    let db: Db;

    upgradeBeforeTests(engine, BEFORE, seed, (u) => {
      db = u.db;
    });

    it("leaves existing jobs untagged in the shared queue, claimed by run_at before new tagged ones", async () => {
      const rows = await db.kysely
        .selectFrom("jobs")
        .select(["id", "queue_key", "fair_tag"])
        .orderBy("id")
        .execute();
      expect(rows).toEqual([
        { id: "old-due", queue_key: "", fair_tag: null },
        { id: "old-later", queue_key: "", fair_tag: null },
      ]);
      await enqueueJob(
        db.kysely,
        { task: "t", payload: {}, jobKey: "new", queueKey: "acct", priority: 1 },
        NOW,
      );
      const claimed = await claimJobs(db, { workerId: "w", limit: 10, now: NOW, leaseMs: 1000 });
      expect(claimed.map((j) => j.id === "old-due" || j.job_key)).toEqual([true, "new"]);
    });

    it.runIf(engine.name === "postgres")("sets the jobs table's autovacuum settings", async () => {
      const { rows } = await sql<{ reloptions: string[] }>`
        select reloptions from pg_class where relname = 'jobs'`.execute(db.kysely);
      expect(rows[0]?.reloptions).toEqual(
        expect.arrayContaining([
          "autovacuum_vacuum_scale_factor=0",
          "autovacuum_vacuum_threshold=5000",
          "autovacuum_vacuum_cost_delay=0",
        ]),
      );
    });
  });
}
