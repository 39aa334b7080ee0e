/**
 * PostgreSQL: the submission statement is planned once per re-planning of its connection
 * (db/connect.ts), not at every run, even when each run carries a single submission — the
 * shape of a store's orders at low load. Left to PostgreSQL's own choice, the first five runs
 * of one submission each are planned for their values, the plan for one row looks cheaper than
 * the generic plan, and every later run is planned again (about 1 ms of the database's CPU
 * each). Counted by PostgreSQL itself: pg_prepared_statements' generic_plans and custom_plans
 * of the connection that ran them.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresEngine } from "../../../test/support/databases.js";
import { uniqueEmail } from "../../../test/support/orders.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import { createAccount } from "../accounts/create-account.js";
import { LIVE_ENRICHMENT } from "../enrichment/enqueue-enrichment.js";
import { prepareWrite, writeSubmissions } from "./submission-statement.js";

const RUNS = 40;

describe.skipIf(!postgresEngine.available)("submission statement plans on postgres", () => {
  let t: TestDeps;
  beforeAll(async () => {
    t = await startTestDeps(postgresEngine);
  });
  afterAll(() => t?.close());

  it("one submission per run: one generic plan per re-planning, no plan per run", async () => {
    const now = Date.now();
    const store = await createAccount(
      t.deps.db.kysely,
      { name: "Plans", ownerEmail: uniqueEmail("owner"), passwordHash: null },
      now,
    );
    const answers: string[] = [];
    // One after another: the pool hands out the same idle connection every time.
    for (let i = 0; i < RUNS; i++) {
      const write = prepareWrite({
        store,
        submission: {
          email: uniqueEmail("plan"),
          firstName: "Jane",
          lastName: "Doe",
          phone: null,
          address: null,
          order: { id: `plan-${i}`, number: null, total: "10.00", currency: "USD" },
        },
        now,
        datedAt: now,
        backdate: false,
        maxAttempts: 5,
        enrichment: LIVE_ENRICHMENT,
        requestId: null,
        unitPriceUsd: "0.05",
      });
      const [answer] = await writeSubmissions(t.deps.db, [write]);
      answers.push(answer?.kind ?? "none");
    }
    expect(answers).toEqual(Array(RUNS).fill("created"));
    // The statement's own text, split so that this query's text does not contain it.
    const { rows } = await sql<{ generic: number; custom: number; pids: number }>`
      select coalesce(sum(generic_plans), 0)::int as generic,
             coalesce(sum(custom_plans), 0)::int as custom,
             count(distinct pg_backend_pid())::int as pids
      from pg_prepared_statements
      where statement like ${"%with ordinality"} || ${" as input(%"}`.execute(t.deps.db.indexed);
    // Every run on the generic plan (made again after each of the connection's re-plannings).
    expect(rows).toEqual([{ generic: RUNS, custom: 0, pids: 1 }]);
  });
});
