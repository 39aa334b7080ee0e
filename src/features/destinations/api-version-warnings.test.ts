/**
 * The dated platform versions Velvet speaks and when it warns of them (no database): Klaviyo's
 * revision from a year after its date (deprecated) until and past two years (retired), Shopify's
 * Admin API version from 9 months after its release until and past 12 (falls forward); the
 * warnings go to the log, an ended version's as an error, when a long-running process starts
 * (both engines); malformed settings stop the start.
 */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { ConfigError, loadConfig } from "../../config.js";
import { buildDeps, closeDeps } from "../../main.js";
import { apiVersionStandings, warnOfAgeingApiVersions } from "./api-version-warnings.js";

const at = (day: string) => Date.parse(`${day}T00:00:00Z`);

function capture() {
  const lines: { level: number; msg: string; setting: string; endsAt: string }[] = [];
  const log = pino({ level: "info" }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { lines, log };
}

describe("API version warnings", () => {
  it("speaks Klaviyo's and Shopify's current versions by default, without a warning today", () => {
    const config = loadConfig({});
    expect(config.destinations.klaviyoRevision).toBe("2026-10-15");
    expect(config.storeSync.shopifyApiVersion).toBe("2026-10");
    const { lines, log } = capture();
    expect(warnOfAgeingApiVersions(config, at("2026-11-27"), log)).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("warns from each platform's warning age, and louder once the platform dropped the version", () => {
    const config = loadConfig({});
    const stages = (day: string) => apiVersionStandings(config, at(day)).map((s) => s.stage);
    // Klaviyo 2026-10-15: deprecated 2027-10-15, retired 2028-10-15. Shopify 2026-10: warned
    // from 2027-07-01, unsupported from 2027-10-01.
    expect(stages("2027-06-30")).toEqual(["current", "current"]);
    expect(stages("2027-07-01")).toEqual(["current", "ageing"]);
    expect(stages("2027-10-01")).toEqual(["current", "ended"]);
    expect(stages("2027-10-15")).toEqual(["ageing", "ended"]);
    expect(stages("2028-10-15")).toEqual(["ended", "ended"]);

    const { lines, log } = capture();
    warnOfAgeingApiVersions(config, at("2027-10-20"), log);
    expect(lines.map((l) => [l.level, l.setting, l.endsAt])).toEqual([
      [40, "KLAVIYO_REVISION", "2028-10-15T00:00:00.000Z"],
      [50, "SHOPIFY_API_VERSION", "2027-10-01T00:00:00.000Z"],
    ]);
    expect(lines[0]?.msg).toContain(
      "Klaviyo API revision 2026-10-15 (KLAVIYO_REVISION) is more than 12 months old: Klaviyo stops serving it on 2028-10-15",
    );
    expect(lines[1]?.msg).toContain(
      "Shopify Admin API version 2026-10 (SHOPIFY_API_VERSION) is no longer served by Shopify since 2027-10-01",
    );
  });

  it("says a retired Klaviyo revision chosen today is no longer served", () => {
    const config = loadConfig({ KLAVIYO_REVISION: "2024-10-15", SHOPIFY_API_VERSION: "2026-01" });
    const [klaviyo, shopify] = apiVersionStandings(config, at("2026-11-27"));
    expect(klaviyo).toMatchObject({ stage: "ended" });
    expect(klaviyo?.warning).toContain("410 Gone");
    expect(shopify).toMatchObject({ stage: "ageing" });
    expect(shopify?.warning).toContain("stops serving it on 2027-01-01");
  });

  it("refuses a revision or version that names no release", () => {
    for (const env of [
      { KLAVIYO_REVISION: "2026-02-30" },
      { KLAVIYO_REVISION: "latest" },
      { SHOPIFY_API_VERSION: "2026-05" },
      { SHOPIFY_API_VERSION: "unstable" },
    ]) {
      expect(() => loadConfig(env)).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(Object.keys(env)[0] as string);
    }
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`starting a long-running process on ${engine.name}`, () => {
    it("logs the ageing versions once the clock is past their warning dates, and nothing before", async () => {
      const database = await engine.createMigrated();
      try {
        const config = { ...loadConfig({}), database: database.target };
        for (const [day, expected] of [
          ["2026-11-27", []],
          ["2027-10-20", ["KLAVIYO_REVISION", "SHOPIFY_API_VERSION"]],
        ] as const) {
          const { lines, log } = capture();
          const deps = await buildDeps({
            config,
            log,
            clock: { now: () => at(day) },
            longRunning: true,
            metrics: false,
          });
          await closeDeps(deps);
          expect(lines.filter((l) => l.setting !== undefined).map((l) => l.setting)).toEqual(
            expected,
          );
        }
      } finally {
        await database.drop();
      }
    });
  });
}
