import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { type Db, openDatabase } from "../../db/connect.js";
import { migrateToLatest } from "../../db/migrate.js";
import type { Database } from "../../db/schema.js";
import { importZipIncome, ZipIncomeFileError } from "./import-zip-income.js";
import { BUNDLED_ZIP_INCOME_FILE } from "./load-bundled-zip-income.js";

const NATIONAL_FILE = BUNDLED_ZIP_INCOME_FILE;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-zip-"));
function fixture(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const PLAIN = fixture(
  "plain.csv",
  [
    "zcta,median_household_income,margin_of_error",
    "00601,19454,1546",
    "02139,125000,", // no margin of error
    "94027,250001,",
    "10020,-666666666,-222222222", // jam: no estimate
    "", // blank lines are ignored
    "02139,1,1", // repeated ZCTA: the first row wins
  ].join("\n"),
);

// The data.census.gov export: quoted, trailing comma, a descriptive second header row, CRLF.
const CENSUS_TABLE = fixture(
  "ACSDT5Y2024.B19013-Data.csv",
  [
    '\uFEFF"GEO_ID","NAME","B19013_001E","B19013_001M",',
    '"Geography","Geographic Area Name","Estimate!!Median household income in the past 12 months (in 2024 inflation-adjusted dollars)","Margin of Error!!Median household income in the past 12 months (in 2024 inflation-adjusted dollars)",',
    '"860Z200US00601","ZCTA5 00601","19454","1546",',
    '"860Z200US10004","ZCTA5 10004","250,000+","***",',
    '"860Z200US00680","ZCTA5 00680","2,500-","***",',
    '"860Z200US10020","ZCTA5 10020","-","**",',
    '"860Z200US10021","ZCTA5 10021","158,677","22,110",',
    '"0100000US","United States","78538","210",', // not a ZCTA
  ].join("\r\n"),
);

const SUMMARY_FILE = fixture(
  "acsdt5y2024-b19013.dat",
  [
    "GEO_ID|B19013_E001|B19013_M001",
    "860Z200US00601|19454|1546",
    "860Z200US10020|-666666666|-222222222",
    "860Z200US94027|250001|-333333333",
  ].join("\n"),
);

type Row = { zcta: string; median_household_income: number; margin_of_error: number | null };

async function table(db: Kysely<Database>): Promise<Row[]> {
  const rows = await db.selectFrom("zip_incomes").selectAll().orderBy("zcta").execute();
  return rows.map((r) => ({
    zcta: r.zcta,
    median_household_income: Number(r.median_household_income),
    margin_of_error: r.margin_of_error === null ? null : Number(r.margin_of_error),
  }));
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`importZipIncome (${engine.name})`, () => {
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

    it("imports the plain format, keeping leading zeros and skipping rows without an estimate", async () => {
      expect(await importZipIncome(db.kysely, PLAIN)).toEqual({ rows: 3, skipped: 2 });
      expect(await table(db.kysely)).toEqual([
        { zcta: "00601", median_household_income: 19454, margin_of_error: 1546 },
        { zcta: "02139", median_household_income: 125000, margin_of_error: null },
        { zcta: "94027", median_household_income: 250001, margin_of_error: null },
      ]);
    });

    it("is idempotent: importing the same file again gives the same table", async () => {
      const before = await table(db.kysely);
      expect(await importZipIncome(db.kysely, PLAIN)).toEqual({ rows: 3, skipped: 2 });
      expect(await table(db.kysely)).toEqual(before);
    });

    it("imports a data.census.gov export, replacing what was loaded", async () => {
      expect(await importZipIncome(db.kysely, CENSUS_TABLE)).toEqual({ rows: 4, skipped: 2 });
      expect(await table(db.kysely)).toEqual([
        { zcta: "00601", median_household_income: 19454, margin_of_error: 1546 },
        { zcta: "00680", median_household_income: 2499, margin_of_error: null },
        { zcta: "10004", median_household_income: 250001, margin_of_error: null },
        { zcta: "10021", median_household_income: 158677, margin_of_error: 22110 },
      ]);
    });

    it("imports the Census summary file (pipe-delimited, jam values)", async () => {
      expect(await importZipIncome(db.kysely, SUMMARY_FILE)).toEqual({ rows: 2, skipped: 1 });
      expect(await table(db.kysely)).toEqual([
        { zcta: "00601", median_household_income: 19454, margin_of_error: 1546 },
        { zcta: "94027", median_household_income: 250001, margin_of_error: null },
      ]);
    });

    it("rejects a file it does not recognise, a missing file and an empty one, changing nothing", async () => {
      const before = await table(db.kysely);
      const bad = [
        [fixture("bad.csv", "zip,income\n00601,19454\n"), /not a recognised ZIP income file/],
        [fixture("empty.csv", ""), /is empty/],
        [
          fixture("no-rows.csv", "zcta,median_household_income\n00601,-\n"),
          /no ZIP code with an income estimate/,
        ],
        [path.join(dir, "missing.csv"), /no such file/],
        [dir, /not a file/],
      ] as const;
      for (const [file, message] of bad) {
        const attempt = importZipIncome(db.kysely, file);
        await expect(attempt, file).rejects.toBeInstanceOf(ZipIncomeFileError);
        await expect(attempt, file).rejects.toThrow(message);
      }
      expect(await table(db.kysely)).toEqual(before);
    });

    it("imports the national file (the one Velvet ships) in a few seconds", async () => {
      const lines = fs.readFileSync(NATIONAL_FILE, "utf8").trim().split("\n").slice(1);
      const expected = new Map(
        lines.map((l) => l.split(",") as [string, string, string]).map((c) => [c[0], c]),
      );
      const started = performance.now();
      const result = await importZipIncome(db.kysely, NATIONAL_FILE);
      const seconds = (performance.now() - started) / 1000;
      expect(result).toEqual({ rows: lines.length, skipped: 0 });
      expect(result.rows).toBeGreaterThan(30_000);
      expect(seconds).toBeLessThan(5);
      const count = await db.kysely
        .selectFrom("zip_incomes")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(lines.length);
      const rows = await db.kysely
        .selectFrom("zip_incomes")
        .selectAll()
        .where("zcta", "in", ["00601", "10021", "94027"])
        .orderBy("zcta")
        .execute();
      for (const row of rows) {
        const [, income, margin] = expected.get(row.zcta) ?? [];
        expect(Number(row.median_household_income)).toBe(Number(income));
        expect(row.margin_of_error === null ? "" : String(row.margin_of_error)).toBe(
          margin?.trim(),
        );
      }
      expect(rows.map((r) => r.zcta)).toEqual(["00601", "10021", "94027"]);
    });
  });
}
