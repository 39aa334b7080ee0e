/**
 * Refreshing the rates from a fake ECB on loopback that speaks the real daily format, on both
 * engines: a good answer stores the day (replacing the shipped one), and every bad answer (an
 * error status, a malformed or partial body, an older day) changes nothing and says why. The
 * shipped day is loaded into an empty table at start, and never over newer rates.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { ecbDailyXml, type FakeEcb, startFakeEcb } from "../../../test/support/fake-ecb.js";
import { type Db, openDatabase } from "../../db/connect.js";
import { migrateToLatest } from "../../db/migrate.js";
import { createOutboundHttp, type OutboundHttp } from "../../lib/outbound/outbound-http.js";
import { loadBundledRates } from "./load-bundled-rates.js";
import { refreshReferenceRates } from "./refresh-reference-rates.js";
import { readUsdQuote } from "./usd-conversion.js";

const NOW = Date.UTC(2025, 4, 13, 16);
const clock = { now: () => NOW };

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`refreshing the ECB reference rates (${engine.name})`, () => {
    let database: TestDatabase;
    let db: Db;
    let ecb: FakeEcb;
    let http: OutboundHttp;
    const refresh = () =>
      refreshReferenceRates({ db, http, clock }, ecb.url, AbortSignal.timeout(10_000));
    const held = () =>
      db.kysely
        .selectFrom("exchange_rates")
        .select(["currency", "per_eur", "rate_date", "source"])
        .orderBy("currency")
        .execute();

    beforeAll(async () => {
      database = await engine.create();
      db = openDatabase(database.target);
      await migrateToLatest(db.kysely);
      ecb = await startFakeEcb();
      http = createOutboundHttp({
        allowPrivate: true,
        timeoutMs: 5000,
        maxBodyBytes: 1024 * 1024,
        userAgent: "Velvet/test",
      });
    });
    afterAll(async () => {
      await http?.close();
      await ecb?.close();
      await db?.close();
      await database?.drop();
    });

    it("loads the shipped day into an empty table, once", async () => {
      expect(await loadBundledRates(db, NOW)).toBe("2025-05-09");
      expect(await loadBundledRates(db, NOW)).toBeNull();
      const rows = await held();
      expect(rows).toHaveLength(30);
      expect(rows.find((r) => r.currency === "USD")).toEqual({
        currency: "USD",
        per_eur: "1.1252",
        rate_date: "2025-05-09",
        source: "ECB",
      });
      expect(await readUsdQuote(db.kysely, "HUF")).toEqual({
        currency: "HUF",
        perEur: "404.9",
        usdPerEur: "1.1252",
        date: "2025-05-09",
        source: "ECB",
      });
      expect(await readUsdQuote(db.kysely, "XOF")).toBeNull();
    });

    it("stores a newer day from the ECB in place of the one held", async () => {
      ecb.answer(200, ecbDailyXml("2025-05-12").replace("rate='1.1252'", "rate='1.1100'"));
      expect(await refresh()).toEqual({
        kind: "stored",
        date: "2025-05-12",
        currencies: 30,
        replaced: "2025-05-09",
      });
      const rows = await held();
      expect(rows).toHaveLength(30);
      expect(new Set(rows.map((r) => r.rate_date))).toEqual(new Set(["2025-05-12"]));
      expect((await readUsdQuote(db.kysely, "EUR"))?.usdPerEur).toBe("1.1100");
      // The same day again rewrites the same rows.
      expect(await refresh()).toMatchObject({ kind: "stored", date: "2025-05-12" });
      expect(await held()).toEqual(rows);
      // A later start does not put the older shipped day back.
      expect(await loadBundledRates(db, NOW)).toBeNull();
      expect((await readUsdQuote(db.kysely, "EUR"))?.date).toBe("2025-05-12");
    });

    it.each([
      [503, "<html>down for maintenance</html>", "the ECB answered HTTP 503"],
      [404, "not found", "the ECB answered HTTP 404"],
      [
        200,
        "<html><body>We are updating our website</body></html>",
        "not the ECB's gesmes:Envelope",
      ],
      [200, ecbDailyXml("2025-05-13").slice(0, 1200), "cut short"],
      [
        200,
        ecbDailyXml("2025-05-13").replace("rate='163.36'", "rate='163,36'"),
        "not a positive decimal",
      ],
      [200, "x".repeat(70 * 1024), "longer than 64 KB"],
    ])(
      "changes nothing when the ECB answers %i with a bad body (%#)",
      async (status, body, why) => {
        const before = await held();
        ecb.answer(status, body);
        const outcome = await refresh();
        expect(outcome.kind).toBe("failed");
        if (outcome.kind !== "failed") return;
        expect(outcome.reason).toContain(why);
        expect(outcome.reason).toContain("the rates held are unchanged");
        expect(await held()).toEqual(before);
      },
    );

    it("keeps newer rates when the ECB's day is older", async () => {
      const before = await held();
      ecb.answer(200, ecbDailyXml("2025-05-02"));
      expect(await refresh()).toEqual({ kind: "kept", date: "2025-05-02", heldDate: "2025-05-12" });
      expect(await held()).toEqual(before);
    });

    it("says so when nothing answers", async () => {
      const outcome = await refreshReferenceRates(
        { db, http, clock },
        "http://127.0.0.1:1/eurofxref-daily.xml",
        AbortSignal.timeout(10_000),
      );
      expect(outcome).toMatchObject({ kind: "failed" });
      if (outcome.kind === "failed")
        expect(outcome.reason).toMatch(/^the ECB could not be reached/);
    });
  });
}
