/**
 * On PostgreSQL the order intake has connections of its own (`indexed`): when every connection
 * of the shared pool is taken (by the worker's jobs, as under a burst of enrichments), orders
 * are still answered at once, key lookup included, instead of queueing behind the jobs.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresEngine } from "../../../test/support/databases.js";
import { uniqueOrderId, validBody } from "../../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";

const POOL_MAX = 2;
const HOLD_MS = 4000;

describe.skipIf(!postgresEngine.available)("orders while the shared pool is taken", () => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(postgresEngine, { env: { DATABASE_POOL_MAX: String(POOL_MAX) } });
    account = await app.createAccount();
    // The key's first use writes last_used_at and takes the key's rate-limit lease: done here,
    // so the orders below are the ordinary case of a key in use.
    const first = await app.submit(account.apiKey, validBody({ order: { id: uniqueOrderId() } }));
    expect(first.status).toBe(200);
  });
  afterAll(() => app?.close());

  it("answers orders at once while every shared connection is held", async () => {
    let release = () => {};
    const released = new Promise<void>((r) => {
      release = r;
    });
    const holders = Array.from({ length: POOL_MAX }, () =>
      app.deps.db.kysely.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await Promise.race([released, new Promise((r) => setTimeout(r, HOLD_MS))]);
      }),
    );
    // Every shared connection is checked out before the orders are sent.
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.submit(
          account.apiKey,
          validBody({
            customer: { email: `starved-${i}-${Date.now()}@example.com` },
            order: { id: uniqueOrderId() },
          }),
        ),
      ),
    );
    const took = Date.now() - started;
    release();
    await Promise.all(holders);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // Well before the held connections come back (HOLD_MS).
    expect(took).toBeLessThan(HOLD_MS / 2);
  });
});
