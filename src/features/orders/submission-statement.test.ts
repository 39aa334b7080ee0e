/**
 * PostgreSQL's submission statement with several customers: two statements that share
 * customers, sent at once in opposite orders, must not deadlock. The rows go in key order
 * (writeSubmissions sorts them), so the second statement waits for the first and then leaves
 * the customers it did not create unsettled (for the general transaction), writing nothing. A trigger slows each statement's second row, so without the sort
 * each would hold one customer the other needs, every time.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresEngine } from "../../../test/support/databases.js";
import { uniqueEmail } from "../../../test/support/orders.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import { createAccount } from "../accounts/create-account.js";
import { LIVE_ENRICHMENT } from "../enrichment/enqueue-enrichment.js";
import { prepareWrite, writeSubmissions } from "./submission-statement.js";

describe.skipIf(!postgresEngine.available)("submission statement on postgres", () => {
  let t: TestDeps;
  beforeAll(async () => {
    t = await startTestDeps(postgresEngine);
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

  it("two batches sharing two new customers, in opposite orders: no deadlock, one row each", async () => {
    const now = Date.now();
    const store = await createAccount(
      t.deps.db.kysely,
      { name: "Order", ownerEmail: uniqueEmail("owner"), passwordHash: null },
      now,
    );
    const write = (email: string) =>
      prepareWrite({
        store,
        submission: {
          email,
          firstName: "Jane",
          lastName: "Doe",
          phone: null,
          address: null,
          order: null,
        },
        now,
        datedAt: now,
        backdate: false,
        maxAttempts: 5,
        enrichment: LIVE_ENRICHMENT,
        requestId: null,
        unitPriceUsd: "0.05",
      });
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
});
