/**
 * Migration 0009 on a database that already holds data, on both engines: charges survive the
 * change (SQLite rebuilds the table) with their unique customer link, the link can now be
 * cleared, and the audit trail refuses UPDATE and DELETE.
 */
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { upgradeBeforeTests } from "../../../test/support/migration-upgrade.js";
import { newId } from "../../lib/ids.js";
import type { Db } from "../connect.js";
import type { Database } from "../schema.js";
import * as m0001 from "./0001_initial.js";
import * as m0002 from "./0002_enrichment.js";
import * as m0003 from "./0003_alerts.js";
import * as m0004 from "./0004_sessions.js";
import * as m0005 from "./0005_due_jobs_index.js";
import * as m0006 from "./0006_order_history_indexes.js";

const BEFORE = {
  "0001_initial": m0001,
  "0002_enrichment": m0002,
  "0003_alerts": m0003,
  "0004_sessions": m0004,
  "0005_due_jobs_index": m0005,
  "0006_order_history_indexes": m0006,
};

async function seed(k: Kysely<Database>) {
  const now = Date.now();
  const [accountId, storeId, customerId, chargeId] = [newId(), newId(), newId(), newId()];
  await k
    .insertInto("accounts")
    .values({
      id: accountId,
      name: "A",
      created_at: now,
    })
    .execute();
  await k
    .insertInto("stores")
    .values({ id: storeId, account_id: accountId, name: "A", created_at: now })
    .execute();
  await k
    .insertInto("customers")
    .values({
      id: customerId,
      store_id: storeId,
      email: "a@example.com",
      email_normalized: "a@example.com",
      first_name: "A",
      last_name: "B",
      phone: null,
      address_city: null,
      address_state: null,
      address_zipcode: null,
      address_country: null,
      enrichment_status: "pending",
      created_at: now,
      updated_at: now,
    })
    .execute();
  await k
    .insertInto("usage_charges")
    .values({
      id: chargeId,
      account_id: accountId,
      store_id: storeId,
      customer_id: customerId,
      unit_price_usd: "0.05",
      created_at: now,
    })
    .execute();
  return { accountId, storeId, customerId, chargeId, now };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`migration 0009 on existing data (${engine.name})`, () => {
    let db: Db;
    let rows: Awaited<ReturnType<typeof seed>>;

    upgradeBeforeTests(engine, BEFORE, seed, (u) => {
      db = u.db;
      rows = u.rows;
    });

    it("keeps every charge, still one per customer, and lets the link be cleared", async () => {
      const k = db.kysely;
      expect(await k.selectFrom("usage_charges").selectAll().execute()).toEqual([
        expect.objectContaining({
          id: rows.chargeId,
          customer_id: rows.customerId,
          unit_price_usd: "0.05",
        }),
      ]);
      const twice = k.insertInto("usage_charges").values({
        id: newId(),
        account_id: rows.accountId,
        store_id: rows.storeId,
        customer_id: rows.customerId,
        unit_price_usd: "0.05",
        created_at: rows.now,
      });
      await expect(twice.execute()).rejects.toThrow();
      await k.updateTable("usage_charges").set({ customer_id: null }).execute();
      await k
        .insertInto("usage_charges")
        .values({
          id: newId(),
          account_id: rows.accountId,
          store_id: rows.storeId,
          customer_id: null,
          unit_price_usd: "0.05",
          created_at: rows.now,
        })
        .execute();
      expect(await k.selectFrom("usage_charges").select("customer_id").execute()).toEqual([
        { customer_id: null },
        { customer_id: null },
      ]);
    });

    it("refuses to change or delete the audit trail", async () => {
      const k = db.kysely;
      const id = newId();
      await k
        .insertInto("audit_events")
        .values({
          id,
          account_id: rows.accountId,
          occurred_at: rows.now,
          actor_kind: "cli",
          actor: "ops",
          action: "account.created",
          subject: null,
          details: null,
        })
        .execute();
      await expect(
        k.updateTable("audit_events").set({ actor: "someone else" }).execute(),
      ).rejects.toThrow(/append-only/);
      await expect(k.deleteFrom("audit_events").execute()).rejects.toThrow(/append-only/);
      expect(await k.selectFrom("audit_events").select("actor").execute()).toEqual([
        { actor: "ops" },
      ]);
    });
  });
}
