/**
 * Migration 0032 on a database that already holds accounts with settings, on both engines: the
 * settings in columns stay where they are, no account gets a row, and `account_settings` holds
 * one value per account and key, only for an account that exists.
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

const BEFORE = migrationsBefore(MIGRATIONS, "0032_account_settings");
const NOW = 1_800_000_000_000;

async function seed(k: Kysely<Database>) {
  const ids = { accountId: newId(), storeId: newId() };
  await seedAccountAndStore(k, ids, NOW);
  await sql`update accounts set vip_threshold = 85, monthly_budget_usd = '50',
    tiers = ${'[{"name":"Gold","floor":90}]'} where id = ${ids.accountId}`.execute(k);
  return ids.accountId;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `migration 0032 on accounts with settings (${engine.name})`,
    () => {
      let db: Db;
      let accountId: string;

      upgradeBeforeTests(engine, BEFORE, seed, (u) => {
        db = u.db;
        accountId = u.rows;
      });

      it("keeps the settings in their columns and adds no row", async () => {
        const account = await db.kysely
          .selectFrom("accounts")
          .select(["vip_threshold", "monthly_budget_usd", "tiers"])
          .where("id", "=", accountId)
          .executeTakeFirstOrThrow();
        expect(account).toEqual({
          vip_threshold: 85,
          monthly_budget_usd: "50",
          tiers: '[{"name":"Gold","floor":90}]',
        });
        expect(await db.kysely.selectFrom("account_settings").selectAll().execute()).toEqual([]);
      });

      it("holds one value per account and key, as JSON text with when it was written", async () => {
        const row = {
          account_id: accountId,
          key: "quiet",
          value: '"22:00-07:00"',
          updated_at: NOW,
        };
        await db.kysely.insertInto("account_settings").values(row).execute();
        expect(await db.kysely.selectFrom("account_settings").selectAll().execute()).toEqual([row]);
        await expect(
          db.kysely
            .insertInto("account_settings")
            .values({ ...row, value: '""' })
            .execute(),
        ).rejects.toThrow();
      });

      it("refuses a setting of an account that does not exist", async () => {
        await expect(
          db.kysely
            .insertInto("account_settings")
            .values({ account_id: newId(), key: "quiet", value: "null", updated_at: NOW })
            .execute(),
        ).rejects.toThrow();
      });
    },
  );
}
