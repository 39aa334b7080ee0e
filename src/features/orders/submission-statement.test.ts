/**
 * PostgreSQL's submission statement:
 * - With several customers: two statements that share customers, sent at once in opposite
 *   orders, must not deadlock. The rows go in key order (writeSubmissions sorts them), so the
 *   second statement waits for the first and then leaves the customers it did not create
 *   unsettled (for the general transaction), writing nothing. A trigger slows each statement's
 *   second row, so without the sort each would hold one customer the other needs, every time.
 * - With one submission a run (a store's orders at low load): planned once per re-planning of
 *   its connection (db/connect.ts), not at every run. Left to PostgreSQL's own choice, the
 *   first five runs are planned for their values, the plan for one row looks cheaper than the
 *   generic plan, and every later run is planned again (about 1 ms of the database's CPU
 *   each). Counted by PostgreSQL itself: pg_prepared_statements' generic_plans and
 *   custom_plans of the connection that ran them.
 * Both again through PgBouncer in transaction mode (test/support/pgbouncer.ts), where the
 * statement runs unnamed, planned at each run for its values, and nothing is kept on the
 * server connection.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresEngine } from "../../../test/support/databases.js";
import { uniqueEmail } from "../../../test/support/orders.js";
import { pgbouncerEngine } from "../../../test/support/pgbouncer.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { StoreRef } from "../../db/store-ref.js";
import { createAccount } from "../accounts/create-account.js";
import { LIVE_ENRICHMENT } from "../enrichment/enqueue-enrichment.js";
import type { OrderSubmission } from "./order-request.js";
import { prepareWrite, writeSubmissions } from "./submission-statement.js";

const RUNS = 40;

for (const engine of [postgresEngine, pgbouncerEngine])
  describe.skipIf(!engine.available)(`submission statement on ${engine.name}`, () => {
    let t: TestDeps;
    beforeAll(async () => {
      t = await startTestDeps(engine);
      await sql`create function slow_second_row() returns trigger language plpgsql as $$
      declare n int := coalesce(nullif(current_setting('velvet_test.rows', true), ''), '0')::int + 1;
      begin
        perform set_config('velvet_test.rows', n::text, true);
        if n = 2 then perform pg_sleep(0.3); end if;
        return new;
      end $$`.execute(t.deps.db.kysely);
      await sql`create trigger slow_second_row before insert on customers for each row execute function slow_second_row()`.execute(
        t.deps.db.kysely,
      );
    });
    afterAll(() => t?.close());

    const newStore = (name: string) =>
      createAccount(
        t.deps.db.kysely,
        { name, ownerEmail: uniqueEmail("owner"), passwordHash: null },
        Date.now(),
      );

    const newCustomer = (
      store: StoreRef,
      email: string,
      order: OrderSubmission["order"] = null,
    ) => {
      const now = Date.now();
      return prepareWrite({
        store,
        submission: {
          email,
          firstName: "Jane",
          lastName: "Doe",
          phone: null,
          address: null,
          order,
        },
        now,
        datedAt: now,
        backdate: false,
        maxAttempts: 5,
        enrichment: LIVE_ENRICHMENT,
        requestId: null,
        unitPriceUsd: "0.05",
      });
    };

    it("two batches sharing two new customers, in opposite orders: no deadlock, one row each", async () => {
      const store = await newStore("Order");
      const write = (email: string) => newCustomer(store, email);
      const [x, y] = [uniqueEmail("x"), uniqueEmail("y")];
      const [first, second] = await Promise.all([
        writeSubmissions(t.deps.db, [write(x), write(y)]),
        writeSubmissions(t.deps.db, [write(y), write(x)]),
      ]);
      // One statement created both customers; the other wrote nothing and left both unsettled.
      const kinds = [first, second].map((answers) => answers.map((a) => a.kind).join());
      expect(kinds.sort()).toEqual(["created,created", "unsettled,unsettled"]);
      const rows = await t.deps.db.kysely
        .selectFrom("customers")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("store_id", "=", store.storeId)
        .executeTakeFirstOrThrow();
      expect(Number(rows.n)).toBe(2);
    });

    /** The statement's plans so far on the connection that answers, which the next run gets. */
    const plans = async () => {
      // The statement's own text, split so that this query's text does not contain it.
      const { rows } = await sql<{ generic: number; custom: number; pid: number }>`
      select coalesce(sum(generic_plans), 0)::int as generic,
             coalesce(sum(custom_plans), 0)::int as custom,
             pg_backend_pid() as pid
      from pg_prepared_statements
      where statement like ${"%with ordinality"} || ${" as input(%"}`.execute(t.deps.db.indexed);
      const [row] = rows;
      if (row === undefined) throw new Error("no row");
      return row;
    };

    it.runIf(engine === postgresEngine)(
      "one submission per run: every run on the generic plan, none planned for its values",
      async () => {
        const store = await newStore("Plans");
        const before = await plans();
        const answers: string[] = [];
        // One after another: the pool hands out the same idle connection every time.
        for (let i = 0; i < RUNS; i++) {
          const order = { id: `plan-${i}`, number: null, total: "10.00", currency: "USD" };
          const [answer] = await writeSubmissions(t.deps.db, [
            newCustomer(store, uniqueEmail("plan"), order),
          ]);
          answers.push(answer?.kind ?? "none");
        }
        expect(answers).toEqual(Array(RUNS).fill("created"));
        const after = await plans();
        expect(after.pid).toBe(before.pid);
        // Every run on the generic plan (made again after each of the connection's re-plannings).
        expect({
          generic: after.generic - before.generic,
          custom: after.custom - before.custom,
        }).toEqual({ generic: RUNS, custom: 0 });
      },
    );

    it.runIf(engine === pgbouncerEngine)(
      "one submission per run: unnamed, so never prepared on a server connection",
      async () => {
        const store = await newStore("Unnamed");
        const answers: string[] = [];
        for (let i = 0; i < RUNS; i++) {
          const order = { id: `unnamed-${i}`, number: null, total: "10.00", currency: "USD" };
          const [answer] = await writeSubmissions(t.deps.db, [
            newCustomer(store, uniqueEmail("unnamed"), order),
          ]);
          answers.push(answer?.kind ?? "none");
        }
        expect(answers).toEqual(Array(RUNS).fill("created"));
        const after = await plans();
        expect({ generic: after.generic, custom: after.custom }).toEqual({ generic: 0, custom: 0 });
        const named = await sql<{
          n: number;
        }>`select count(*)::int as n from pg_prepared_statements`.execute(t.deps.db.kysely);
        expect(named.rows[0]?.n).toBe(0);
      },
    );
  });
