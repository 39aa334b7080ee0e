/**
 * Migration 0027 on a database that already holds orders in several currencies, on both engines:
 * the orders are untouched, `exchange_rates` starts empty, and preparing the database stores
 * the ECB day Velvet ships, after which those orders convert.
 */
import { type Kysely, sql } from "kysely";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  migrationsBefore,
  seedAccountAndStore,
  upgradeBeforeTests,
} from "../../../test/support/migration-upgrade.js";
import { readUsdQuote, toUsdCents } from "../../features/exchange-rates/usd-conversion.js";
import { newId } from "../../lib/ids.js";
import { prepareDatabase } from "../../main.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";
import type { Database } from "../schema.js";

const BEFORE = migrationsBefore(MIGRATIONS, "0027_exchange_rates");

async function seed(k: Kysely<Database>) {
  const now = Date.now();
  const [accountId, storeId, customerId] = [newId(), newId(), newId()];
  await seedAccountAndStore(k, { accountId, storeId }, now);
  await sql`insert into customers (id, store_id, email, email_normalized, first_name, last_name,
      enrichment_status, created_at, updated_at)
    values (${customerId}, ${storeId}, 'jane@acme.com', 'jane@acme.com', 'Jane', 'Doe',
      'enriched', ${now}, ${now})`.execute(k);
  for (const [i, [total, currency]] of [
    ["925.50", "EUR"],
    ["150000", "JPY"],
    ["40.00", "USD"],
  ].entries()) {
    await sql`insert into orders (id, store_id, customer_id, external_order_id, total, currency,
        created_at)
      values (${newId()}, ${storeId}, ${customerId}, ${`10${i}`}, ${total}, ${currency},
        ${now + i})`.execute(k);
  }
  return { customerId };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`migration 0027 on existing orders (${engine.name})`, () => {
    let db: Db;

    upgradeBeforeTests(engine, BEFORE, seed, (u) => {
      db = u.db;
    });

    it("adds an empty rates table and leaves the orders as they were", async () => {
      expect(await db.kysely.selectFrom("exchange_rates").selectAll().execute()).toEqual([]);
      const orders = await db.kysely
        .selectFrom("orders")
        .select(["total", "currency"])
        .orderBy("created_at")
        .execute();
      expect(orders).toEqual([
        { total: "925.50", currency: "EUR" },
        { total: "150000", currency: "JPY" },
        { total: "40.00", currency: "USD" },
      ]);
    });

    it("holds the shipped day once the database is prepared, and the old orders convert", async () => {
      const report = await prepareDatabase(db, pino({ level: "silent" }));
      expect(report.referenceRatesLoaded).toBe("2025-05-09");
      const eur = await readUsdQuote(db.kysely, "EUR");
      const jpy = await readUsdQuote(db.kysely, "JPY");
      if (eur === null || jpy === null) throw new Error("no rates held");
      expect(toUsdCents("925.50", eur)).toBe("1041.37");
      expect(toUsdCents("150000", jpy)).toBe("1033.18");
    });
  });
}
