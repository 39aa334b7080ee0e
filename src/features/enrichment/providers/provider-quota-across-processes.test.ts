/**
 * A provider limited to 60 lookups a minute, asked by two processes enriching together (`velvet
 * serve`, which runs a worker, and a separate `velvet worker`) on one database, on both engines:
 * the fake PDL, counting when requests arrive, never sees more than one a second plus one in any
 * window, however the jobs fall between the processes. Per process, the two would ask twice as
 * often.
 *
 * PDL's own rule is a fixed 60-second window per API key and endpoint ("with a limit of 100
 * requests per minute, you can send all 100 at any point in the 60-second window", then 429
 * until the window resets: docs.peopledatalabs.com/support/troubleshooting/rate-limit-errors).
 * Velvet's shared slots are stricter, evenly spaced, so any 60-second window holds at most the
 * limit plus one, whichever way PDL's windows fall.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProvider, startFakePdl } from "../../../../test/fakes/providers/index.js";
import { ENGINES, type TestDatabase } from "../../../../test/support/databases.js";
import { openTestDeps, waitFor } from "../../../../test/support/job-deps.js";
import { validBody } from "../../../../test/support/orders.js";
import {
  type ServeProcess,
  startServeProcess,
  stopProcess,
} from "../../../../test/support/serve-process.js";
import { type RunningProcess, spawnVelvet } from "../../../../test/support/spawn-worker.js";
import type { AppDeps } from "../../../app-deps.js";
import { closeDeps } from "../../../main.js";
import { createAccount } from "../../accounts/create-account.js";

const CUSTOMERS = 30;
const OBSERVED = 11;

/** The most requests that arrived within any `windowMs` (each window starting at a request). */
function busiest(at: number[], windowMs: number): number {
  let most = 0;
  for (let i = 0; i < at.length; i++) {
    const start = at[i] as number;
    most = Math.max(most, at.filter((t) => t >= start && t < start + windowMs).length);
  }
  return most;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a provider's quota across processes (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    let pdl: FakeProvider;
    let serve: ServeProcess | undefined;
    let worker: RunningProcess | undefined;

    beforeAll(async () => {
      pdl = await startFakePdl();
      database = await engine.createMigrated();
      deps = await openTestDeps(database);
    }, 30_000);
    afterAll(async () => {
      await Promise.all([serve?.stop(), worker && stopProcess(worker)]);
      if (deps) await closeDeps(deps);
      await database?.drop();
      await pdl?.close();
    });

    it("asks the provider at most one a second plus one, both processes together", async () => {
      const env = {
        PDL_API_KEY: pdl.apiKey ?? "",
        PDL_BASE_URL: pdl.url,
        PDL_RATE_LIMIT_PER_MIN: "60",
        WORKER_POLL_INTERVAL_MS: "50",
        // A few jobs at a time each, so that both processes hold lookups at once.
        WORKER_CONCURRENCY: "4",
      };
      [serve, worker] = [
        await startServeProcess(database.url, env),
        spawnVelvet(["worker"], database.url, env),
      ];
      const { apiKey } = await createAccount(
        deps.db.kysely,
        { name: "Quota", ownerEmail: `quota-${Date.now()}@example.com`, passwordHash: null },
        Date.now(),
      );
      for (let i = 0; i < CUSTOMERS; i++) {
        const res = await fetch(`${serve.url}/api/v1/orders`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
          body: JSON.stringify(validBody()),
        });
        expect(res.status).toBe(200);
      }
      await waitFor(`${OBSERVED} lookups at PDL`, () => pdl.requestCount() >= OBSERVED, 25_000);
      const at = pdl.requests.map((r) => r.at).sort((a, b) => a - b);
      const within = at.filter((t) => t < (at[0] as number) + 10_000);
      expect(
        busiest(at, 1000),
        `arrivals ${at.map((t) => t - (at[0] as number))}`,
      ).toBeLessThanOrEqual(2);
      expect(busiest(at, 5000)).toBeLessThanOrEqual(6);
      // And the slots are used: not a lookup every few seconds. (Not nine or ten: on a loaded
      // machine two Node processes and PostgreSQL may not take every slot in time; the quota is
      // the upper bound.)
      expect(within.length).toBeGreaterThanOrEqual(4);
      expect(within.length).toBeLessThanOrEqual(11);
    }, 60_000);
  });
}
