/**
 * Migration 0023 on a database that already holds orders, on both engines: every existing order
 * counts and has no status; a new order counts unless told; the customer index now leads with
 * (customer_id, counts) and the old one is gone, so the purchase count stays an index read.
 */
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  migrationsBefore,
  seedAccountAndStore,
  upgradeBeforeTests,
} from "../../../test/support/migration-upgrade.js";
import { newId } from "../../lib/ids.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";
import type { Database } from "../schema.js";

const BEFORE = migrationsBefore(MIGRATIONS, "0023_order_status");

async function seed(k: Kysely<Database>) {
  const now = Date.now();
  const [accountId, storeId, customerId] = [newId(), newId(), newId()];
  await seedAccountAndStore(k, { accountId, storeId }, now);
  await k
    .insertInto("customers")
    .values({
      id: customerId,
      store_id: storeId,
      email: "jane@acme.com",
      email_normalized: "jane@acme.com",
      first_name: "Jane",
      last_name: "Doe",
      phone: null,
      address_city: null,
      address_state: null,
      address_zipcode: null,
      address_country: null,
      enrichment_status: "enriched",
      created_at: now,
      updated_at: now,
    })
    .execute();
  const orders = [newId(), newId()];
  for (const [i, id] of orders.entries()) {
    // Columns as 0022 left them: the new ones are not there yet.
    await sql`insert into orders (id, store_id, customer_id, external_order_id, order_number,
      total, currency, created_at)
      values (${id}, ${storeId}, ${customerId}, ${`10${i}`}, null, '25.00', 'USD', ${now + i})`.execute(
      k,
    );
  }
  return { storeId, customerId, orders };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`migration 0023 on existing orders (${engine.name})`, () => {
    let db: Db;
    let rows: Awaited<ReturnType<typeof seed>>;

    upgradeBeforeTests(engine, BEFORE, seed, (u) => {
      db = u.db;
      rows = u.rows;
    });

    it("keeps every existing order counting, with no status", async () => {
      const orders = await db.kysely
        .selectFrom("orders")
        .select(["id", "status", "counts", "status_at"])
        .orderBy("id")
        .execute();
      expect(orders).toEqual(
        [...rows.orders].sort().map((id) => ({ id, status: null, counts: 1, status_at: null })),
      );
    });

    it("counts a new order unless told otherwise", async () => {
      const id = newId();
      await db.kysely
        .insertInto("orders")
        .values({
          id,
          store_id: rows.storeId,
          customer_id: rows.customerId,
          external_order_id: "200",
          order_number: null,
          total: "5.00",
          currency: "USD",
          created_at: Date.now(),
        })
        .execute();
      const row = await db.kysely
        .selectFrom("orders")
        .select(["counts", "status"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ counts: 1, status: null });
    });

    it("replaces the customer index with one that leads with (customer_id, counts)", async () => {
      const names =
        engine.name === "sqlite"
          ? await sql<{ name: string }>`select name from sqlite_master
              where type = 'index' and tbl_name = 'orders'`.execute(db.kysely)
          : await sql<{ name: string }>`select indexname as name from pg_indexes
              where tablename = 'orders'`.execute(db.kysely);
      const found = names.rows.map((r) => r.name);
      expect(found).toContain("orders_customer_counts_created_idx");
      expect(found).not.toContain("orders_customer_created_idx");
    });
  });
}
