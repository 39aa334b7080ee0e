/**
 * Migration 0026 on a database that already holds an account, on both engines: the account
 * names no tiers (`[]`), a new account starts with none, and tiers written afterwards read back.
 */
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { upgradeBeforeTests } from "../../../test/support/migration-upgrade.js";
import { accountTiers } from "../../features/customers/account-tiers.js";
import { storedTiers } from "../../features/customers/tiers.js";
import { newId } from "../../lib/ids.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";

const BEFORE = Object.fromEntries(
  Object.entries(MIGRATIONS).filter(([name]) => name < "0026_tiers"),
);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`migration 0026 on existing accounts (${engine.name})`, () => {
    let db: Db;
    let existing: string;

    upgradeBeforeTests(
      engine,
      BEFORE,
      async (k) => {
        const id = newId();
        await k
          .insertInto("accounts")
          .values({
            id,
            name: "Before tiers",
            created_at: Date.now(),
          })
          .execute();
        return id;
      },
      (u) => {
        db = u.db;
        existing = u.rows;
      },
    );

    it("gives every existing account no tiers, and a new one none either", async () => {
      const row = await db.kysely
        .selectFrom("accounts")
        .select(["tiers", "vip_threshold"])
        .where("id", "=", existing)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ tiers: "[]", vip_threshold: 70 });
      const id = newId();
      await db.kysely.insertInto("accounts").values({ id, name: "After", created_at: 1 }).execute();
      expect(await accountTiers(db.kysely, id)).toEqual([]);
    });

    it("keeps tiers written afterwards", async () => {
      const tiers = [
        { name: "Gold", floor: 90 },
        { name: "Silver", floor: 80 },
      ];
      await db.kysely
        .updateTable("accounts")
        .set({ tiers: storedTiers(tiers) })
        .where("id", "=", existing)
        .execute();
      expect(await accountTiers(db.kysely, existing)).toEqual(tiers);
    });
  });
}
