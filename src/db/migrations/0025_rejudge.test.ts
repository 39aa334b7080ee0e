/**
 * Migration 0025 on a database that already holds enrichments, on both engines: an existing VIP
 * is a VIP since their enrichment, anyone else has no `vip_since`; no change of the decision
 * and no re-judge is recorded yet; the re-judge cursor table starts empty and takes one row.
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

const BEFORE = migrationsBefore(MIGRATIONS, "0025_rejudge");
const ENRICHED_AT = Date.UTC(2026, 0, 15, 9, 30);

async function seed(k: Kysely<Database>) {
  const now = Date.now();
  const [accountId, storeId] = [newId(), newId()];
  await seedAccountAndStore(k, { accountId, storeId }, now);
  const customers = { vip: newId(), regular: newId(), pending: newId() };
  for (const [name, id] of Object.entries(customers)) {
    await k
      .insertInto("customers")
      .values({
        id,
        store_id: storeId,
        email: `${name}@acme.com`,
        email_normalized: `${name}@acme.com`,
        first_name: name,
        last_name: "Doe",
        phone: null,
        address_city: null,
        address_state: null,
        address_zipcode: null,
        address_country: null,
        enrichment_status: name === "pending" ? "pending" : "enriched",
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  // Columns as 0024 left them: the new ones are not there yet.
  for (const [id, vip] of [
    [customers.vip, 1],
    [customers.regular, 0],
  ] as const) {
    await sql`insert into enrichments (customer_id, score, vip, threshold, attempts, enriched_at,
      updated_at) values (${id}, ${vip ? 85 : 30}, ${vip}, 70, 1, ${ENRICHED_AT}, ${ENRICHED_AT})`.execute(
      k,
    );
  }
  await sql`insert into enrichments (customer_id, attempts, updated_at)
    values (${customers.pending}, 1, ${ENRICHED_AT})`.execute(k);
  return customers;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `migration 0025 on existing enrichments (${engine.name})`,
    () => {
      let db: Db;
      let customers: Awaited<ReturnType<typeof seed>>;

      upgradeBeforeTests(engine, BEFORE, seed, (u) => {
        db = u.db;
        customers = u.rows;
      });

      const row = (id: string) =>
        db.kysely
          .selectFrom("enrichments")
          .select(["vip", "vip_since", "vip_changed_at", "vip_change_reason", "rejudged_at"])
          .where("customer_id", "=", id)
          .executeTakeFirstOrThrow();

      it("makes an existing VIP a VIP since their enrichment, and nobody else one", async () => {
        expect(await row(customers.vip)).toEqual({
          vip: 1,
          vip_since: ENRICHED_AT,
          vip_changed_at: null,
          vip_change_reason: null,
          rejudged_at: null,
        });
        expect((await row(customers.regular)).vip_since).toBeNull();
        expect((await row(customers.pending)).vip_since).toBeNull();
      });

      it("keeps one re-judge cursor per name", async () => {
        const write = (id: string) =>
          db.kysely
            .insertInto("rejudge_cursors")
            .values({ name: "orders", last_order_id: id, updated_at: Date.now() })
            .onConflict((oc) => oc.column("name").doUpdateSet({ last_order_id: id }))
            .execute();
        await write("a");
        await write("b");
        const rows = await db.kysely
          .selectFrom("rejudge_cursors")
          .select("last_order_id")
          .execute();
        expect(rows).toEqual([{ last_order_id: "b" }]);
      });
    },
  );
}
