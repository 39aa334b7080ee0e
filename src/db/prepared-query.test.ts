import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../test/support/databases.js";
import { type Db, openDatabase } from "./connect.js";
import { migrateToLatest } from "./migrate.js";
import { dialectOf, preparedQuery } from "./prepared-query.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`preparedQuery on ${engine.name}`, () => {
    let database: TestDatabase;
    let db: Db;

    beforeAll(async () => {
      database = await engine.create();
      db = openDatabase(database.target);
      await migrateToLatest(db.kysely);
    });

    afterAll(async () => {
      await db?.close();
      await database?.drop();
    });

    it("builds once per engine and binds fresh values on every run, keeping constants", async () => {
      let builds = 0;
      const insertAccount = preparedQuery(
        ["id", "name", "created_at"],
        (k, v: { id: string; name: string; created_at: number }) => {
          builds++;
          return k
            .insertInto("accounts")
            .values({ id: v.id, name: v.name, vip_threshold: 55, created_at: v.created_at })
            .returning(["id", "name", "vip_threshold", "created_at"]);
        },
      );
      const findByName = preparedQuery(["name"], (k, v: { name: string }) =>
        k.selectFrom("accounts").select("id").where("name", "=", v.name).orderBy("id"),
      );

      const a = await insertAccount.executeTakeFirst(db.kysely, {
        id: "acc-a",
        name: "Alpha",
        created_at: 1,
      });
      const b = await db.kysely.transaction().execute((trx) =>
        insertAccount.executeTakeFirst(trx, {
          id: "acc-b",
          name: "Beta",
          created_at: 2,
        }),
      );

      expect(a).toEqual({ id: "acc-a", name: "Alpha", vip_threshold: 55, created_at: 1 });
      expect(b).toEqual({ id: "acc-b", name: "Beta", vip_threshold: 55, created_at: 2 });
      expect(builds).toBe(1);
      expect(await findByName.execute(db.kysely, { name: "Beta" })).toEqual([{ id: "acc-b" }]);
      expect(await findByName.executeTakeFirst(db.kysely, { name: "Gamma" })).toBe(undefined);
    });

    it("reads the engine off a Kysely instance and off a transaction", async () => {
      expect(dialectOf(db.kysely)).toBe(db.dialect);
      await db.kysely.transaction().execute(async (trx) => {
        expect(dialectOf(trx)).toBe(db.dialect);
      });
      const count = preparedQuery([], (k) =>
        k.selectFrom("accounts").select((eb) => eb.fn.countAll().as("n")),
      );
      expect(await count.executeTakeFirst(db.kysely, {})).toHaveProperty("n");
    });

    it("refuses a named value that is inlined into the SQL or never used", async () => {
      const inlined = preparedQuery(["name"], (k, v: { name: string }) =>
        k.selectFrom("accounts").select("id").where(sql.lit(v.name), "=", "x"),
      );
      await expect(inlined.execute(db.kysely, { name: "x" })).rejects.toThrow(/inlined/);
      const unused = preparedQuery(["name"], (k, _v: { name: string }) =>
        k.selectFrom("accounts").select("id"),
      );
      await expect(unused.execute(db.kysely, { name: "x" })).rejects.toThrow(/unused values name/);
    });
  });
}
