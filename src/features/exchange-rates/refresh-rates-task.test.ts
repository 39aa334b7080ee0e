/**
 * The daily refresh job: no outbound call unless ECB_RATES_REFRESH allows it; when allowed, the
 * day is stored and the next run is the next 15:30 UTC; a failure is retried an hour later with
 * the rates held unchanged. Both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { ecbDailyXml, type FakeEcb, startFakeEcb } from "../../../test/support/fake-ecb.js";
import { manualClock, openTestDeps } from "../../../test/support/job-deps.js";
import type { AppDeps } from "../../app-deps.js";
import type { JobContext } from "../../jobs/task.js";
import { refreshRatesTask, untilNextRun } from "./refresh-rates-task.js";
import { heldRateDate } from "./store-rate-day.js";

const HOUR = 60 * 60_000;
const ctx: JobContext = {
  jobId: "j",
  attempt: 1,
  maxAttempts: 5,
  requestId: null,
  signal: new AbortController().signal,
};

describe("untilNextRun", () => {
  it("waits for the next 15:30 UTC, after the ECB's publication in either season", () => {
    expect(untilNextRun(Date.UTC(2025, 4, 12, 10, 0))).toBe(5.5 * HOUR);
    expect(untilNextRun(Date.UTC(2025, 4, 12, 15, 30))).toBe(24 * HOUR);
    expect(untilNextRun(Date.UTC(2025, 4, 12, 16, 0))).toBe(23.5 * HOUR);
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`the daily rates refresh job (${engine.name})`, () => {
    let database: TestDatabase;
    let ecb: FakeEcb;
    const opened: AppDeps[] = [];
    const clock = manualClock(Date.UTC(2025, 4, 12, 16, 0));
    async function depsWith(refresh: boolean): Promise<AppDeps> {
      const deps = await openTestDeps(database, {
        clock,
        providers: [],
        env: {
          ECB_RATES_REFRESH: String(refresh),
          ECB_RATES_URL: ecb.url,
          WEBHOOKS_ALLOW_PRIVATE: "true",
        },
      });
      opened.push(deps);
      return deps;
    }

    beforeAll(async () => {
      database = await engine.create();
      ecb = await startFakeEcb();
    });
    afterAll(async () => {
      for (const deps of opened) {
        await deps.closeProviders();
        await deps.alerts.close();
        await deps.http.close();
        await deps.db.close();
      }
      await ecb?.close();
      await database?.drop();
    });

    it("calls nobody while ECB_RATES_REFRESH is off", async () => {
      const deps = await depsWith(false);
      ecb.answer(200, ecbDailyXml("2025-05-12"));
      const outcome = await refreshRatesTask().handle(deps, {}, ctx);
      expect(outcome).toEqual({ kind: "again", delayMs: 23.5 * HOUR });
      expect(ecb.requests).toBe(0);
      // The day shipped, loaded at start.
      expect(await heldRateDate(deps.db.kysely)).toBe("2025-05-09");
    });

    it("stores the day when allowed, and retries a failure an hour later", async () => {
      const deps = await depsWith(true);
      const task = refreshRatesTask();
      ecb.answer(503, "busy");
      expect(await task.handle(deps, {}, ctx)).toEqual({ kind: "again", delayMs: HOUR });
      expect(await heldRateDate(deps.db.kysely)).toBe("2025-05-09");
      ecb.answer(200, ecbDailyXml("2025-05-12"));
      expect(await task.handle(deps, {}, ctx)).toEqual({ kind: "again", delayMs: 23.5 * HOUR });
      expect(await heldRateDate(deps.db.kysely)).toBe("2025-05-12");
      expect(ecb.requests).toBe(2);
    });
  });
}
