import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pino } from "pino";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { type Db, openDatabase } from "../../db/connect.js";
import { prepareDatabase } from "../../main.js";
import { importZipIncome } from "./import-zip-income.js";
import { BUNDLED_ZIP_INCOME_FILE, loadBundledZipIncome } from "./load-bundled-zip-income.js";

const silent = pino({ level: "silent" });
const bundledRows = fs.readFileSync(BUNDLED_ZIP_INCOME_FILE, "utf8").trim().split("\n").length - 1;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-zip-bundled-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function count(db: Db): Promise<number> {
  const row = await db.kysely
    .selectFrom("zip_incomes")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function income(db: Db, zcta: string): Promise<number | null> {
  const row = await db.kysely
    .selectFrom("zip_incomes")
    .select("median_household_income")
    .where("zcta", "=", zcta)
    .executeTakeFirst();
  return row === undefined ? null : Number(row.median_household_income);
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`the bundled ZIP income table (${engine.name})`, () => {
    const opened: Array<{ database: TestDatabase; db: Db }> = [];
    let database: TestDatabase;
    let db: Db;

    beforeEach(async () => {
      database = await engine.create();
      db = openDatabase(database.target);
      opened.push({ database, db });
    });
    afterAll(async () => {
      for (const o of opened) {
        await o.db.close();
        await o.database.drop();
      }
    });

    it("is loaded by the first migration of an empty database, and only once", async () => {
      const first = await prepareDatabase(db, silent);
      expect(first.zipIncomesLoaded).toBe(bundledRows);
      expect(await count(db)).toBe(bundledRows);
      // The README's Atherton example: the Census top code.
      expect(await income(db, "94027")).toBe(250001);
      const again = await prepareDatabase(db, silent);
      expect(again).toEqual({ applied: [], zipIncomesLoaded: 0, referenceRatesLoaded: null });
      expect(await count(db)).toBe(bundledRows);
    });

    it("never overwrites a table an operator loaded", async () => {
      await prepareDatabase(db, silent);
      const newer = path.join(dir, `newer-${engine.name}.csv`);
      fs.writeFileSync(newer, "zcta,median_household_income\n94027,300000\n");
      await importZipIncome(db.kysely, newer);
      expect(await loadBundledZipIncome(db)).toBe(0);
      expect(await count(db)).toBe(1);
      expect(await income(db, "94027")).toBe(300000);
    });

    it("loads once when several processes start together on an empty database", async () => {
      const runs = await Promise.all(
        [1, 2, 3].map(() => runVelvet(["migrate", "--json"], { DATABASE_URL: database.url })),
      );
      const loaded = runs.map((run) => onlyJson(run).zipIncomesLoaded);
      expect(loaded.filter((n) => n !== 0)).toEqual([bundledRows]);
      expect(await count(db)).toBe(bundledRows);
    });
  });
}
