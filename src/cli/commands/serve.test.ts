import net from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  ENGINES,
  PG_BASE,
  postgresEngine,
  type TestDatabase,
} from "../../../test/support/databases.js";
import { openTestDeps, waitFor } from "../../../test/support/job-deps.js";
import { type RunningProcess, spawnVelvet } from "../../../test/support/spawn-worker.js";
import type { AppDeps } from "../../app-deps.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { closeDeps } from "../../main.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet serve runs the worker (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    let velvet: RunningProcess | undefined;

    beforeEach(async () => {
      database = await engine.createMigrated();
      deps = await openTestDeps(database);
      await enqueueJob(deps.db.kysely, { task: "no-such-task", payload: {} }, Date.now());
    });

    afterEach(async () => {
      if (velvet && velvet.child.exitCode === null && velvet.child.signalCode === null) {
        velvet.child.kill("SIGKILL");
      }
      await velvet?.exited;
      await closeDeps(deps);
      await database.drop();
    });

    // The test's job (a worker also keeps its periodic retention rows).
    const job = () =>
      deps.db.kysely
        .selectFrom("jobs")
        .selectAll()
        .where("task", "=", "no-such-task")
        .executeTakeFirst();
    const serve = (env: Record<string, string>) =>
      spawnVelvet(["serve"], database.url, {
        PORT: "0",
        HOST: "127.0.0.1",
        LOG_LEVEL: "info",
        WORKER_POLL_INTERVAL_MS: "50",
        ...env,
      });
    const listening = () => velvet?.stdout().includes('"msg":"velvet is listening"') === true;

    it("serves HTTP, health checks and metrics, works the queue, then exits 0 on SIGTERM", async () => {
      velvet = serve({ METRICS_PORT: "0" });
      await waitFor("the server to listen", listening, 20_000);
      const url = /"url":"(http:[^"]+)"[^\n]*"msg":"velvet is listening"/.exec(
        velvet.stdout(),
      )?.[1];
      expect((await fetch(`${url}/api/v1/orders`)).status).toBe(405);
      // One human line beside the JSON logs says where to go.
      await waitFor(
        "the start line",
        () => velvet?.stderr().includes("Velvet is running") === true,
      );
      expect(velvet.stderr()).toContain(`Velvet is running: open ${url}/signup`);
      expect((await fetch(`${url}/readyz`)).status).toBe(200);
      const metricsUrl = /"url":"(http:[^"]+\/metrics)"/.exec(velvet.stdout())?.[1] as string;
      expect(metricsUrl).not.toBe(`${url}/metrics`);
      expect((await fetch(`${url}/metrics`)).status).toBe(404);
      await waitFor(
        "the worker to settle the job",
        async () => (await job())?.last_error != null,
        10_000,
      );
      expect((await job())?.last_error).toMatch(/^unknown task "no-such-task"/);
      const scraped = await (await fetch(metricsUrl)).text();
      expect(scraped).toContain('velvet_jobs{task="no-such-task",state="given_up"} 1');
      expect(scraped).toMatch(
        /velvet_http_request_duration_seconds_count\{method="GET",route="\/readyz",status="200"\} 1/,
      );
      velvet.child.kill("SIGTERM");
      expect(await velvet.exited, velvet.stderr()).toEqual({ code: 0, signal: null });
      expect(velvet.stdout()).toContain('"msg":"worker stopped"');
    });

    it("leaves the queue alone with WORKER_ENABLED=false", async () => {
      velvet = serve({ WORKER_ENABLED: "false" });
      await waitFor("the server to listen", listening, 20_000);
      // The start-up line says no worker was started: none can claim the job afterwards.
      await waitFor(
        "the start-up line",
        () => velvet?.stdout().includes('"workerId":null') === true,
      );
      expect(await job()).toMatchObject({ attempts: 0, locked_by: null, last_error: null });
      velvet.child.kill("SIGTERM");
      expect(await velvet.exited, velvet.stderr()).toEqual({ code: 0, signal: null });
    });

    it("exits non-zero within seconds, with one clear line, when the port is taken", async () => {
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      const port = (taken.address() as net.AddressInfo).port;
      try {
        velvet = serve({ PORT: String(port) });
        const started = Date.now();
        const exit = await velvet.exited;
        expect(exit.code, velvet.stderr()).toBe(1);
        expect(Date.now() - started).toBeLessThan(10_000);
        const lines = velvet.stderr().trim().split("\n");
        expect(lines).toEqual([
          `velvet: cannot listen on 127.0.0.1:${port}: the address is already in use (another process listens there) (EADDRINUSE); choose another with PORT and HOST`,
        ]);
      } finally {
        taken.close();
      }
    });

    it("velvet worker exits non-zero with one line when its metrics port is taken", async () => {
      const taken = net.createServer();
      await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
      const port = (taken.address() as net.AddressInfo).port;
      try {
        velvet = spawnVelvet(["worker"], database.url, { METRICS_PORT: String(port) });
        const exit = await velvet.exited;
        expect(exit.code, velvet.stderr()).toBe(1);
        expect(velvet.stderr().trim().split("\n")).toEqual([
          `velvet: cannot listen on 127.0.0.1:${port}: the address is already in use (another process listens there) (EADDRINUSE); choose another with METRICS_PORT and METRICS_HOST`,
        ]);
      } finally {
        taken.close();
      }
    });
  });
}

describe.skipIf(!postgresEngine.available)("velvet serve without its PostgreSQL database", () => {
  it("says the database does not exist and how to create it, and exits non-zero", async () => {
    const missing = new URL(PG_BASE);
    missing.pathname = "/velvet_missing_database_for_test";
    const velvet = spawnVelvet(["serve"], missing.toString(), { PORT: "0" });
    const exit = await velvet.exited;
    expect(exit.code).toBe(1);
    expect(velvet.stderr()).toMatch(
      /^velvet: PostgreSQL database "velvet_missing_database_for_test" does not exist on 127\.0\.0\.1:5432\. Create it with `createdb -h 127\.0\.0\.1 -p 5432 (-U \w+ )?velvet_missing_database_for_test`/,
    );
  });
});
