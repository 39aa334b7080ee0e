/**
 * Bursts of new and returning customers, as a busy store sends them. On PostgreSQL the ones that
 * arrive while the database is busy are written together (submission-batches.ts); on SQLite by
 * group commit. Either way each submission must keep its own answer and its own fate: a taken order
 * id, a shared e-mail or a failing row affect that submission alone, and nothing of a failed one
 * is written.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, postgresEngine } from "../../../test/support/databases.js";
import {
  FAILED,
  storeRows,
  submitJson,
  UUID_RE,
  uniqueEmail,
  uniqueOrderId,
  validBody,
} from "../../../test/support/orders.js";
import { pgbouncerEngine } from "../../../test/support/pgbouncer.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import type { Db } from "../../db/connect.js";

const BURST = 40;

/** Fails the insert of the one order whose platform id is `poison`, on either engine. */
async function poisonOrderId(db: Db, poison: string): Promise<void> {
  if (db.dialect === "sqlite") {
    await sql`create trigger orders_poison before insert on orders when new.external_order_id = ${sql.lit(poison)} begin select raise(abort, 'poisoned order'); end`.execute(
      db.kysely,
    );
    return;
  }
  await sql`create or replace function orders_poison() returns trigger language plpgsql as $$ begin if new.external_order_id = ${sql.lit(poison)} then raise exception 'poisoned order'; end if; return new; end $$`.execute(
    db.kysely,
  );
  await sql`create trigger orders_poison before insert on orders for each row execute function orders_poison()`.execute(
    db.kysely,
  );
}

/** How many transactions wrote the store's customers or orders (PostgreSQL: distinct xmin). */
async function writingTransactions(
  db: Db,
  storeId: string,
  table: "customers" | "orders" = "customers",
): Promise<number> {
  const row = await sql<{
    n: string;
  }>`select count(distinct xmin::text) as n from ${sql.table(table)} where store_id = ${storeId}`.execute(
    db.kysely,
  );
  return Number(row.rows[0]?.n);
}

// Also through PgBouncer in transaction mode (test/pgbouncer.test.ts says why these files).
for (const engine of [...ENGINES, pgbouncerEngine]) {
  describe.skipIf(!engine.available)(`bursts of submissions on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(() => app?.close());

    it(`${BURST} new customers at once: each its own ids, one customer, order, charge and job each`, async () => {
      const store = await app.createAccount();
      const results = await Promise.all(
        Array.from({ length: BURST }, () =>
          submitJson(app, store.apiKey, validBody({ order: { id: uniqueOrderId() } })),
        ),
      );
      for (const r of results) {
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.enrichmentStatus).toBe("queued");
        expect(r.body.customerId).toMatch(UUID_RE);
        expect(r.body.orderId).toMatch(UUID_RE);
      }
      expect(new Set(results.map((r) => r.body.customerId)).size).toBe(BURST);
      expect(new Set(results.map((r) => r.body.orderId)).size).toBe(BURST);
      expect(await storeRows(app.deps.db, store.storeId)).toEqual({
        customers: BURST,
        orders: BURST,
        charges: BURST,
        jobs: BURST,
      });
      if (engine.dialect === "postgres") {
        // The burst did not take one transaction per customer: batches formed.
        expect(await writingTransactions(app.deps.db, store.storeId)).toBeLessThan(BURST);
      }
    });

    it("a burst with a taken order id, a shared e-mail and customers without orders: each answered as if alone", async () => {
      const store = await app.createAccount();
      const taken = uniqueOrderId();
      const first = await submitJson(app, store.apiKey, validBody({ order: { id: taken } }));
      expect(first.status).toBe(200);
      const shared = uniqueEmail("shared");
      const bodies = [
        ...Array.from({ length: 12 }, () => validBody({ order: { id: uniqueOrderId() } })),
        validBody({ order: { id: taken } }),
        validBody({ email: shared, order: { id: uniqueOrderId() } }),
        validBody({ email: shared.toUpperCase(), order: { id: uniqueOrderId() } }),
        ...Array.from({ length: 12 }, () => validBody()),
      ];
      const results = await Promise.all(bodies.map((b) => submitJson(app, store.apiKey, b)));
      const byIndex = (i: number) => results[i] as (typeof results)[number];

      expect(byIndex(12).status).toBe(409);
      expect(byIndex(12).body.error).toBe("Conflict");
      const [a, b] = [byIndex(13), byIndex(14)];
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(a.body.customerId).toBe(b.body.customerId);
      expect(a.body.orderId).not.toBe(b.body.orderId);
      for (const [i, r] of results.entries()) {
        if (i === 12 || i === 13 || i === 14) continue;
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.enrichmentStatus).toBe("queued");
        expect("orderId" in r.body).toBe(i < 12);
      }
      // first + 12 with orders + the shared customer + 12 without orders.
      expect(await storeRows(app.deps.db, store.storeId)).toEqual({
        customers: 1 + 12 + 1 + 12,
        orders: 1 + 12 + 2,
        charges: 26,
        jobs: 26,
      });
    });

    it("a burst of returning customers: new orders, repeats, one retry per failed customer, a 409, each as if alone", async () => {
      const store = await app.createAccount();
      const emails = Array.from({ length: BURST }, () => uniqueEmail("back"));
      const firstOrders = emails.map(() => uniqueOrderId());
      const first = await Promise.all(
        emails.map((email, i) =>
          submitJson(app, store.apiKey, validBody({ email, order: { id: firstOrders[i] } })),
        ),
      );
      const ids = first.map((r) => r.body.customerId as string);
      // Customers 0–9 enriched, 10–19 failed, the rest still pending.
      const db = app.deps.db.kysely;
      await db
        .updateTable("customers")
        .set({ enrichment_status: "enriched" })
        .where("id", "in", ids.slice(0, 10))
        .execute();
      await db
        .updateTable("customers")
        .set({ enrichment_status: "failed" })
        .where("id", "in", ids.slice(10, 20))
        .execute();
      const before = await storeRows(app.deps.db, store.storeId);

      // Each returning customer sends a new order, even ones also its first order again (a
      // repeat), and customer 0 sends customer 1's order id (a conflict). The failed ones send
      // two new orders at once: one of them gets the retry.
      const bodies = emails.flatMap((email, i) => {
        const own = [validBody({ email: email.toUpperCase(), order: { id: uniqueOrderId() } })];
        if (i % 2 === 0) own.push(validBody({ email, order: { id: firstOrders[i] } }));
        if (i >= 10 && i < 20) own.push(validBody({ email, order: { id: uniqueOrderId() } }));
        return own;
      });
      bodies.push(validBody({ email: emails[0], order: { id: firstOrders[1] } }));
      const results = await Promise.all(bodies.map((b) => submitJson(app, store.apiKey, b)));

      const conflict = results.at(-1);
      expect(conflict?.status).toBe(409);
      expect(conflict?.body.error).toBe("Conflict");
      const byCustomer = new Map<string, (typeof results)[number][]>();
      for (const r of results.slice(0, -1)) {
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        const list = byCustomer.get(r.body.customerId as string) ?? [];
        list.push(r);
        byCustomer.set(r.body.customerId as string, list);
      }
      expect([...byCustomer.keys()].sort()).toEqual([...ids].sort());
      for (const [i, id] of ids.entries()) {
        const answers = (byCustomer.get(id) ?? []).map((r) => r.body.enrichmentStatus).sort();
        if (i < 10) expect(answers.every((a) => a === "existing")).toBe(true);
        else if (i < 20)
          expect(answers).toEqual([...answers.map(() => "queued").slice(1), "retry"]);
        else expect(answers.every((a) => a === "queued")).toBe(true);
        if (i % 2 === 0) {
          const repeat = byCustomer.get(id)?.find((r) => r.body.orderId === first[i]?.body.orderId);
          expect(repeat, `customer ${i}'s repeat`).toBeDefined();
        }
      }
      const newOrders = BURST + 10;
      expect(await storeRows(app.deps.db, store.storeId)).toEqual({
        ...before,
        orders: before.orders + newOrders,
      });
      const failed = await db
        .selectFrom("customers")
        .select("id")
        .where("store_id", "=", store.storeId)
        .where("enrichment_status", "=", "failed")
        .execute();
      expect(failed).toEqual([]);
      if (engine.dialect === "postgres") {
        // The returning customers' orders were not written one transaction each (counted over
        // this burst's orders only: how the first burst batched is not this test's question).
        const row = await sql<{ n: string }>`select count(distinct xmin::text) as n from orders
          where store_id = ${store.storeId}
            and not (external_order_id = any(${firstOrders}))`.execute(db);
        expect(Number(row.rows[0]?.n)).toBeLessThan(newOrders);
      }
    });

    it("a submission that fails inside the database fails alone: a 500, nothing of it written, the rest stored", async () => {
      const store = await app.createAccount();
      const poison = uniqueOrderId();
      await poisonOrderId(app.deps.db, poison);
      const poisonEmail = uniqueEmail("poison");
      const bodies = Array.from({ length: 20 }, (_, i) =>
        i === 7
          ? validBody({ email: poisonEmail, order: { id: poison } })
          : validBody({ order: { id: uniqueOrderId() } }),
      );
      const results = await Promise.all(bodies.map((b) => submitJson(app, store.apiKey, b)));
      for (const [i, r] of results.entries()) {
        if (i === 7) expect(r).toEqual({ status: 500, body: FAILED });
        else expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      expect(await storeRows(app.deps.db, store.storeId)).toEqual({
        customers: 19,
        orders: 19,
        charges: 19,
        jobs: 19,
      });
      const poisoned = await app.deps.db.kysely
        .selectFrom("customers")
        .select("id")
        .where("email", "=", poisonEmail)
        .execute();
      expect(poisoned).toEqual([]);
    });
  });
}

describe.skipIf(!postgresEngine.available)("a batch lost to an unavailable database", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(postgresEngine);
    // PostgreSQL's own "server shutting down" SQLSTATE (57P01), from the first row of every
    // statement that inserts an outage customer; the sequence counts the attempts (a sequence
    // is not rolled back with the statement).
    const db = app.deps.db.kysely;
    await sql`create sequence outage_attempts`.execute(db);
    await sql`create function outage() returns trigger language plpgsql as $$ begin
        if new.email like 'outage%' then
          perform nextval('outage_attempts');
          raise exception 'terminating connection due to administrator command' using errcode = 'admin_shutdown';
        end if;
        return new;
      end $$`.execute(db);
    await sql`create trigger outage before insert on customers for each row execute function outage()`.execute(
      db,
    );
  });
  afterAll(() => app?.close());

  it("fails once per batch, every member a 503, instead of once more per member", async () => {
    const store = await app.createAccount();
    const results = await Promise.all(
      Array.from({ length: BURST }, () =>
        submitJson(app, store.apiKey, validBody({ email: uniqueEmail("outage") })),
      ),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body)).toBe(503);
    const attempts = await sql<{
      n: string;
    }>`select last_value as n from outage_attempts`.execute(app.deps.db.kysely);
    // One attempt per batch; member by member it would be at least one per submission more.
    expect(Number(attempts.rows[0]?.n)).toBeLessThan(BURST);
  });
});
