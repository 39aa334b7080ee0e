import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runVelvet } from "../../../test/support/cli.js";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { ecbDailyXml, type FakeEcb, startFakeEcb } from "../../../test/support/fake-ecb.js";
import { openDatabase } from "../../db/connect.js";

/** Runs `velvet …` from source against the given database; never rejects, returns the outcome. */
async function velvet(databaseUrl: string, ...args: string[]) {
  return velvetWith({}, databaseUrl, ...args);
}

async function velvetWith(env: Record<string, string>, databaseUrl: string, ...args: string[]) {
  return runVelvet(args, { ...env, DATABASE_URL: databaseUrl, LOG_LEVEL: "silent" });
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-cli-zip-"));
const good = path.join(dir, "zip.csv");
const bad = path.join(dir, "bad.csv");
fs.writeFileSync(good, "zcta,median_household_income\n02139,125000\n00601,19454\n10020,-\n");
fs.writeFileSync(bad, "postcode;income\n02139;125000\n");
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet data import-zip-income (${engine.name})`, () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await engine.create();
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("imports a file and answers with one JSON object", async () => {
      const result = await velvet(database.url, "data", "import-zip-income", good, "--json");
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({ imported: 2, skipped: 1 });
      expect(result.code).toBe(0);
      const db = openDatabase(database.target);
      try {
        const rows = await db.kysely
          .selectFrom("zip_incomes")
          .select("zcta")
          .orderBy("zcta")
          .execute();
        expect(rows.map((r) => r.zcta)).toEqual(["00601", "02139"]);
      } finally {
        await db.close();
      }
    });

    it("fails with a message and a non-zero exit code on a file it does not recognise", async () => {
      const result = await velvet(database.url, "data", "import-zip-income", bad, "--json");
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain("is not a recognised ZIP income file");
      expect(result.stderr).not.toContain("    at "); // a message, not a stack trace
    });
  });
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet data refresh-rates (${engine.name})`, () => {
    let database: TestDatabase;
    let ecb: FakeEcb;
    const refreshRates = () =>
      velvetWith(
        { ECB_RATES_URL: ecb.url, WEBHOOKS_ALLOW_PRIVATE: "true" },
        database.url,
        "data",
        "refresh-rates",
        "--json",
      );
    async function heldDates(): Promise<string[]> {
      const db = openDatabase(database.target);
      try {
        const rows = await db.kysely
          .selectFrom("exchange_rates")
          .select("rate_date")
          .distinct()
          .execute();
        return rows.map((r) => r.rate_date);
      } finally {
        await db.close();
      }
    }
    beforeAll(async () => {
      database = await engine.create();
      ecb = await startFakeEcb();
    });
    afterAll(async () => {
      await ecb?.close();
      await database?.drop();
    });

    it("stores the ECB's day and answers with one JSON object", async () => {
      ecb.answer(200, ecbDailyXml("2025-05-12"));
      const result = await refreshRates();
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({
        stored: true,
        date: "2025-05-12",
        currencies: 30,
        replaced: "2025-05-09", // the day Velvet ships, loaded when the database was prepared
      });
      expect(result.code).toBe(0);
      expect(await heldDates()).toEqual(["2025-05-12"]);

      const shown = await velvet(database.url, "data", "rates", "--json");
      expect(shown.code).toBe(0);
      const held = JSON.parse(shown.stdout);
      expect(held).toMatchObject({ date: "2025-05-12", source: "ECB" });
      expect(held.rates).toHaveLength(31); // the euro and the 30 currencies quoted against it
      expect(held.rates).toContainEqual({ currency: "EUR", perEur: "1", usdPerUnit: "1.1252" });
      expect(held.rates).toContainEqual({
        currency: "JPY",
        perEur: "163.36",
        usdPerUnit: "0.006888",
      });
    });

    it("changes nothing on a malformed answer, and says why with a non-zero exit", async () => {
      ecb.answer(200, ecbDailyXml("2025-05-13").replace("rate='1.1252'", "rate='one'"));
      const result = await refreshRates();
      expect(result.code).not.toBe(0);
      expect(result.stdout).toBe("");
      expect(result.stderr).toContain(
        'Rates not refreshed: the answer is not a usable day of rates: the rate for USD ("one") is not a positive decimal; the rates held are unchanged.',
      );
      expect(result.stderr).not.toContain("    at ");
      expect(await heldDates()).toEqual(["2025-05-12"]);
    });
  });
}
