/**
 * Migration 0031 on a database whose budget rows hold their own copy of the month's spend, on
 * both engines: the ledger's rows become shard 0, the copy goes, the month's spend read from the
 * ledger is what the copy said,
 * the reservations and notices in flight stay, and a reservation after the upgrade counts the
 * spend from before it.
 */
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  migrationsBefore,
  seedAccountAndStore,
  upgradeBeforeTests,
} from "../../../test/support/migration-upgrade.js";
import { getBudgetStatus, reserveBudget } from "../../features/billing/monthly-budget.js";
import { newId } from "../../lib/ids.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";
import type { Database } from "../schema.js";

const BEFORE = migrationsBefore(MIGRATIONS, "0031_spend_ledger_shards");
const NOW = 1_800_000_000_000;
const MONTH = "2027-01";

async function seed(k: Kysely<Database>) {
  const ids = { accountId: newId(), storeId: newId() };
  await seedAccountAndStore(k, ids, NOW);
  await sql`update accounts set monthly_budget_usd = '1.00' where id = ${ids.accountId}`.execute(k);
  // As every settlement wrote them: the ledger's rows and the same sum on the budget's row.
  for (const [provider, lookups, micros] of [
    ["pdl", 2, 560_000],
    ["fullcontact", 1, 100_000],
  ] as const) {
    await sql`insert into provider_spend (account_id, month, provider, lookups, amount_micros,
      updated_at) values (${ids.accountId}, ${MONTH}, ${provider}, ${lookups}, ${micros},
      ${NOW})`.execute(k);
  }
  await sql`insert into budget_months (account_id, month, reserved_micros, spent_micros,
    notified_80, notified_100) values (${ids.accountId}, ${MONTH}, 100000, 660000, 0, 0)`.execute(
    k,
  );
  return ids.accountId;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`migration 0031 on existing spend (${engine.name})`, () => {
    let db: Db;
    let accountId: string;

    upgradeBeforeTests(engine, BEFORE, seed, (u) => {
      db = u.db;
      accountId = u.rows;
    });

    it("reads the month's spend from the ledger and keeps what is reserved", async () => {
      const row = await db.kysely
        .selectFrom("budget_months")
        .selectAll()
        .where("account_id", "=", accountId)
        .executeTakeFirstOrThrow();
      expect(Object.keys(row).sort()).toEqual([
        "account_id",
        "month",
        "notified_100",
        "notified_80",
        "reserved_micros",
      ]);
      const ledger = await db.kysely
        .selectFrom("provider_spend")
        .select(["provider", "shard", "lookups"])
        .where("account_id", "=", accountId)
        .orderBy("provider")
        .execute();
      expect(ledger.map((r) => [r.provider, Number(r.shard), Number(r.lookups)])).toEqual([
        ["fullcontact", 0, 1],
        ["pdl", 0, 2],
      ]);
      expect(await getBudgetStatus(db.kysely, accountId, MONTH)).toEqual({
        budgetUsd: "1.00",
        spentUsd: "0.66",
        reservedUsd: "0.10",
        percentUsed: 66,
      });
      // 0.66 spent and 0.10 held leave 0.24.
      expect(await reserveBudget(db.kysely, accountId, MONTH, "1.00", 250_000)).toBeNull();
      expect(await reserveBudget(db.kysely, accountId, MONTH, "1.00", 240_000)).not.toBeNull();
    });
  });
}
