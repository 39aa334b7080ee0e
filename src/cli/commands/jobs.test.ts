/**
 * The real `velvet` program on a temporary SQLite database: `jobs list` (filters, --json),
 * `jobs retry <id>` and `--all-failed`, their refusals, and `account set --rate-limit`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { sqliteEngine, type TestDatabase } from "../../../test/support/databases.js";
import { openDatabase } from "../../db/connect.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";

describe("velvet jobs and velvet account set --rate-limit", () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let accountId: string;
  const velvet = (...args: string[]) => runVelvet(args, env);
  beforeAll(async () => {
    database = await sqliteEngine.createMigrated();
    env = { DATABASE_URL: database.url };
    const created = onlyJson(
      await velvet("account", "create", "--name", "Acme", "--owner", "owner@acme.com", "--json"),
    );
    accountId = created.accountId as string;
    // Two jobs of a task: one given up, one due (the task is unknown to the worker: neither runs).
    const db = openDatabase(database.target);
    const now = Date.now();
    await enqueueJob(
      db.kysely,
      { task: "probe", payload: {}, jobKey: "probe:1", requestId: "r-1" },
      now,
    );
    await enqueueJob(db.kysely, { task: "probe", payload: {}, jobKey: "probe:2" }, now);
    await db.kysely
      .updateTable("jobs")
      .set((eb) => ({ attempts: eb.ref("max_attempts"), last_error: "it broke" }))
      .where("job_key", "=", "probe:1")
      .execute();
    await db.close();
  });
  afterAll(() => database?.drop());

  it("lists jobs by state and task, and retries one that gave up", async () => {
    const failed = onlyJson(await velvet("jobs", "list", "--state", "failed", "--json"));
    const jobs = failed.jobs as Array<Record<string, unknown>>;
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({
      task: "probe",
      state: "failed",
      jobKey: "probe:1",
      lastError: "it broke",
      requestId: "r-1",
    });
    const all = onlyJson(await velvet("jobs", "list", "--task", "probe", "--json"));
    // Both were made in the same millisecond: their order is the ids' random part.
    const states = (all.jobs as Array<{ state: string }>).map((j) => j.state).sort();
    expect(states).toEqual(["due", "failed"]);
    const human = await velvet("jobs", "list", "--state", "failed");
    expect(human.stdout).toContain("last error: it broke");
    expect(human.stdout.split("\n")[0]).toMatch(
      /^ID\s+TASK\s+STATE\s+ATTEMPTS\s+RUN AT\s+JOB KEY\s+REQUEST ID$/,
    );

    const id = jobs[0]?.id as string;
    expect(onlyJson(await velvet("jobs", "retry", id, "--json"))).toEqual({ retried: [id] });
    const again = await velvet("jobs", "retry", id);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(`No given-up job ${id}`);
    expect(onlyJson(await velvet("jobs", "retry", "--all-failed", "--json"))).toEqual({
      retried: [],
    });
  });

  it("refuses a bad state, and retry without a target", async () => {
    const bad = await velvet("jobs", "list", "--state", "stuck");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("the state is one of due, running, scheduled, failed");
    const none = await velvet("jobs", "retry");
    expect(none.code).not.toBe(0);
    expect(none.stderr).toContain("give either a job id or --all-failed");
  });

  it("sets, shows and clears an account's rate limit", async () => {
    const set = onlyJson(
      await velvet("account", "set", "--account", accountId, "--rate-limit", "120", "--json"),
    );
    expect(set.apiRateLimitPerMinute).toBe(120);
    const cleared = await velvet("account", "set", "--account", accountId, "--rate-limit", "");
    expect(cleared.stdout).toContain(
      "API rate limit: 6000 requests a minute per key (the default, API_RATE_LIMIT_PER_MINUTE)",
    );
    const bad = await velvet("account", "set", "--account", accountId, "--rate-limit", "-5");
    expect(bad.code).not.toBe(0);
  });
});
