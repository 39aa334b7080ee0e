/**
 * `velvet serve` runs its worker on a thread of its own by default (worker-thread.ts), on both
 * engines: orders taken on the serving thread are enriched by the worker thread within moments
 * (it is rung, not left to its poll), the thread's provider answers are counted on the process's
 * one /metrics, and SIGTERM stops both threads cleanly. WORKER_THREAD=false keeps the worker on
 * the serving thread.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type FakeProvider, startFakePdl } from "../test/fakes/providers/index.js";
import { ENGINES, type TestDatabase } from "../test/support/databases.js";
import { openTestDeps, waitFor } from "../test/support/job-deps.js";
import { enrichedCustomers, postOrders, validBody } from "../test/support/orders.js";
import { type ServeProcess, startServeProcess } from "../test/support/serve-process.js";
import type { AppDeps } from "./app-deps.js";
import { type CreatedAccount, createAccount } from "./features/accounts/create-account.js";
import { closeDeps } from "./main.js";

const ORDERS = 5;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet serve's worker thread (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    let account: CreatedAccount;
    let pdl: FakeProvider;
    let velvet: ServeProcess | undefined;

    beforeEach(async () => {
      database = await engine.create();
      deps = await openTestDeps(database);
      pdl = await startFakePdl();
      account = await createAccount(
        deps.db.kysely,
        { name: "Thread", ownerEmail: `thread-${Date.now()}@example.com`, passwordHash: null },
        Date.now(),
      );
    });

    afterEach(async () => {
      await velvet?.stop();
      velvet = undefined;
      await closeDeps(deps);
      await database.drop();
      await pdl.close();
    });

    const serve = (env: Record<string, string> = {}) =>
      startServeProcess(database.url, {
        PDL_API_KEY: pdl.apiKey ?? "",
        PDL_BASE_URL: pdl.url,
        // Above the burst of this test, so no lookup waits for its next slot.
        PDL_RATE_LIMIT_PER_MIN: "6000",
        METRICS_PORT: "0",
        // A worker left to its poll would take seconds: only the doorbell makes it quick.
        WORKER_POLL_INTERVAL_MS: "10000",
        ...env,
      });

    const submit = (url: string) =>
      postOrders(
        url,
        account.apiKey,
        Array.from({ length: ORDERS }, () => validBody()),
      );
    const enrichedCount = () => enrichedCustomers(deps.db, account.storeId);

    const metricsBody = async (process: ServeProcess) => {
      const metricsUrl = /"url":"(http:[^"]+\/metrics)"/.exec(process.stdout())?.[1] as string;
      return (await fetch(metricsUrl)).text();
    };
    /** The sum of one counter's series on the process's /metrics. */
    const counted = async (process: ServeProcess, name: string) =>
      (await metricsBody(process))
        .split("\n")
        .filter((line) => line.startsWith(`${name}{`))
        .reduce((sum, line) => sum + Number(line.split(" ").pop()), 0);
    /** A helper thread's reported event-loop samples (velvet_thread_event_loop_delay_seconds). */
    const loopSamples = async (process: ServeProcess, thread: string) => {
      const series = `velvet_thread_event_loop_delay_seconds_count{thread="${thread}"}`;
      const line = (await metricsBody(process)).split("\n").find((l) => l.startsWith(series));
      return line === undefined ? null : Number(line.split(" ").pop());
    };

    it("enriches on its own thread, rung at once, counted on the one /metrics, stopped cleanly", async () => {
      velvet = await serve();
      expect(velvet.stdout()).toMatch(/"workerRunsOn":"own thread"[^\n]*"velvet is listening"/);
      const started = Date.now();
      expect(await submit(velvet.url)).toEqual(Array(ORDERS).fill(200));
      await waitFor("the orders to be enriched", async () => (await enrichedCount()) === ORDERS);
      // Well inside the 10 s poll: the serving thread rang the worker thread.
      expect(Date.now() - started).toBeLessThan(5000);
      expect(pdl.requestCount()).toBe(ORDERS);
      const running = velvet;
      await waitFor(
        "the thread's provider answers on /metrics",
        async () => (await counted(running, "velvet_provider_calls_total")) === ORDERS,
      );
      // Both helper threads' event loops, sampled on their threads, reported every 5 s.
      await waitFor(
        "the helper threads' event-loop delay on /metrics",
        async () =>
          ((await loopSamples(running, "worker")) ?? 0) > 0 &&
          ((await loopSamples(running, "providers")) ?? 0) > 0,
        12_000,
        200,
      );
      await velvet.stop();
      expect(await velvet.exited, velvet.stderr()).toEqual({ code: 0, signal: null });
      expect(velvet.stdout()).toContain('"msg":"worker stopped"');
    });

    it("keeps the worker on the serving thread with WORKER_THREAD=false", async () => {
      velvet = await serve({ WORKER_THREAD: "false" });
      expect(velvet.stdout()).toMatch(/"workerRunsOn":"serving thread"[^\n]*"velvet is listening"/);
      expect(await submit(velvet.url)).toEqual(Array(ORDERS).fill(200));
      await waitFor("the orders to be enriched", async () => (await enrichedCount()) === ORDERS);
      const running = velvet;
      await waitFor(
        "the provider answers on /metrics",
        async () => (await counted(running, "velvet_provider_calls_total")) === ORDERS,
      );
      await waitFor(
        "the provider thread's event-loop delay on /metrics",
        async () => ((await loopSamples(running, "providers")) ?? 0) > 0,
        12_000,
        200,
      );
      expect(await loopSamples(running, "worker")).toBeNull();
    });
  });
}
