/**
 * Migration 0028 on a database that already holds an account, its store and a key, on both
 * engines: those rows are untouched, `shared_limits` starts empty, and the first lease on the
 * upgraded database writes its row.
 */
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  migrationsBefore,
  seedAccountAndStore,
  upgradeBeforeTests,
} from "../../../test/support/migration-upgrade.js";
import { takeWindowLease } from "../../features/shared-limits/shared-limits-table.js";
import { newId } from "../../lib/ids.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";

const BEFORE = migrationsBefore(MIGRATIONS, "0028_shared_limits");

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `migration 0028 on an existing database (${engine.name})`,
    () => {
      let db: Db;
      const ids = { accountId: newId(), storeId: newId() };

      upgradeBeforeTests(
        engine,
        BEFORE,
        (k) => seedAccountAndStore(k, ids, Date.now()),
        (u) => {
          db = u.db;
        },
      );

      it("adds an empty shared_limits table and leaves the account as it was", async () => {
        expect(await db.kysely.selectFrom("shared_limits").selectAll().execute()).toEqual([]);
        const account = await db.kysely
          .selectFrom("accounts")
          .select("id")
          .where("id", "=", ids.accountId)
          .executeTakeFirst();
        expect(account?.id).toBe(ids.accountId);
      });

      it("takes a lease on the upgraded database", async () => {
        const now = Date.now();
        const lease = await takeWindowLease(db, {
          name: "key:upgraded",
          want: 5,
          limit: 100,
          windowMs: 60_000,
          now,
        });
        expect(lease).toEqual({ granted: 5, used: 5, windowEndsAt: now + 60_000 });
      });
    },
  );
}
