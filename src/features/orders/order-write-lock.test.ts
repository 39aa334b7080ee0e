/**
 * A second process holding SQLite's write lock (a separate worker, an import, a backup tool)
 * must not freeze `velvet serve`: requests that need no write are answered at once, orders wait
 * for the lock and are all stored; past SQLITE_BUSY_TIMEOUT_MS an order gets the contract's 500
 * with Retry-After and nothing half-written. The latency bounds asserted here hold on a loaded
 * machine (p95 under 250 ms, slowest under 1 s); the quiet-machine targets, p95 under 50 ms and
 * slowest under 250 ms, are the benchmark's `pacing` phase (bench/pacing.ts, docs/performance.md),
 * which runs this same scenario (test/support/orders-under-held-lock.ts).
 */
import { afterEach, describe, expect, it } from "vitest";
import { sqliteEngine, type TestDatabase } from "../../../test/support/databases.js";
import { holdWriteLock } from "../../../test/support/hold-sqlite-lock.js";
import { FAILED, UNAUTHORIZED } from "../../../test/support/orders.js";
import {
  ordersUnderHeldLock,
  orderBody as validBody,
} from "../../../test/support/orders-under-held-lock.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";

describe("another process holds the SQLite write lock", () => {
  let app: TestApp | undefined;
  let database: TestDatabase | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
    await database?.drop();
  });

  async function start(env: Record<string, string> = {}) {
    database = await sqliteEngine.createMigrated();
    app = await startTestApp(sqliteEngine, { database, env });
    const account = await app.createAccount();
    if (database.target.kind !== "sqlite") throw new Error("expected SQLite");
    return { app, account, file: database.target.file };
  }

  const count = (a: TestApp, table: "customers" | "orders" | "jobs" | "usage_charges") =>
    a.deps.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));

  it("keeps answering for 2 s of held lock, then stores every order: no 5xx, nothing lost", async () => {
    const { app, account, file } = await start();
    const run = await ordersUnderHeldLock(app, account.apiKey, file);
    expect(run.warmUpStatus).toBe(401);
    const answers = run.orders;
    expect(run.refusals.map((r) => r.status)).toEqual(run.refusals.map(() => 401));
    for (const refused of run.refusals) expect(refused.body).toEqual(UNAUTHORIZED);
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    expect(answers.length).toBeGreaterThan(20);
    // Before this driver, a request needing no write waited the whole 2 s for the lock. The
    // lock costs it nothing now: the bounds sit far below the lock's 2 s and far above what a
    // loaded test machine adds by descheduling this process for a moment (the quiet-machine
    // figures, a few ms, are a benchmark's matter).
    const sorted = [...run.noWriteLatencies].sort((x, y) => x - y);
    expect(sorted[Math.floor(sorted.length * 0.95)]).toBeLessThan(250);
    expect(sorted.at(-1)).toBeLessThan(1000);
    for (const table of ["customers", "orders", "jobs", "usage_charges"] as const)
      expect(await count(app, table), table).toBe(answers.length);
  });

  it("answers 500 with Retry-After past SQLITE_BUSY_TIMEOUT_MS, writing nothing", async () => {
    const { app, account, file } = await start({ SQLITE_BUSY_TIMEOUT_MS: "300" });
    const lock = await holdWriteLock(file, 1500);
    const body = validBody();
    const res = await app.submit(account.apiKey, body);
    expect(res.status).toBe(500);
    expect(res.headers.get("retry-after")).toBe("1");
    expect(await res.json()).toEqual(FAILED);
    await lock.released;
    expect(await count(app, "customers")).toBe(0);
    // Safe to retry, as the contract says: the same order now goes through once.
    const retried = await app.submit(account.apiKey, body);
    expect(retried.status).toBe(200);
    expect(await count(app, "orders")).toBe(1);
  });
});
