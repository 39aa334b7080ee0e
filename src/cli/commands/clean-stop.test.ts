/**
 * `velvet serve` and `velvet worker` stop cleanly on SIGTERM and SIGINT, on whichever Node runs
 * the tests (CI runs them on the newest supported one): exit 0, the worker's "stopped" line,
 * and nothing from Node's or V8's native side on stderr. Both are stopped while they work, with
 * prepared statements on the serving thread, the WAL checkpoint thread running (SQLite) and the
 * provider thread answering, which is when a native module that outlives its thread's
 * environment aborts the process ("Assertion failed: (env) != nullptr" from a statement
 * finalized after its thread's environment is gone).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { openTestDeps, waitFor } from "../../../test/support/job-deps.js";
import {
  enrichedCustomers,
  postOrders,
  uniqueEmail,
  uniqueOrderId,
} from "../../../test/support/orders.js";
import { type RunningProcess, spawnVelvet } from "../../../test/support/spawn-worker.js";
import type { AppDeps } from "../../app-deps.js";
import { type CreatedAccount, createAccount } from "../../features/accounts/create-account.js";
import type { OrderSubmission } from "../../features/orders/order-request.js";
import { submitOrder } from "../../features/orders/submit-order.js";
import { closeDeps } from "../../main.js";

/** What Node, V8 or a native addon print when they abort or crash instead of exiting. */
const NATIVE_FAILURE =
  /Assertion failed|FATAL ERROR|Segmentation fault|Aborted|node::|v8::|\bSIG(SEGV|ABRT|BUS)\b|core dumped/;

const ORDERS = 40;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet stops cleanly (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    let account: CreatedAccount;
    let velvet: RunningProcess | undefined;

    beforeEach(async () => {
      database = await engine.createMigrated();
      deps = await openTestDeps(database);
      account = await createAccount(
        deps.db.kysely,
        { name: "Stop", ownerEmail: uniqueEmail("owner"), passwordHash: null },
        Date.now(),
      );
    });

    afterEach(async () => {
      if (velvet && velvet.child.exitCode === null && velvet.child.signalCode === null) {
        velvet.child.kill("SIGKILL");
      }
      await velvet?.exited;
      velvet = undefined;
      await closeDeps(deps);
      await database.drop();
    });

    const order = (): OrderSubmission => ({
      email: uniqueEmail("stop"),
      firstName: "Jane",
      lastName: "Doe",
      phone: null,
      address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
      order: { id: uniqueOrderId(), number: "#1", total: "950.00", currency: "USD" },
    });

    const enriched = async () => (await enrichedCustomers(deps.db, account.storeId)) >= ORDERS;

    /** Stops the process with `signal` and expects a clean exit. */
    const expectCleanStop = async (process: RunningProcess, signal: NodeJS.Signals) => {
      process.child.kill(signal);
      const exit = await process.exited;
      const output = `${process.stderr()}\n${process.stdout()}`;
      expect(exit, output).toEqual({ code: 0, signal: null });
      expect(output).not.toMatch(NATIVE_FAILURE);
      expect(process.stdout()).toContain('"msg":"worker stopped"');
    };

    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      it(`velvet serve exits 0 on ${signal} after taking and enriching orders`, async () => {
        velvet = spawnVelvet(["serve"], database.url, {
          PORT: "0",
          HOST: "127.0.0.1",
          LOG_LEVEL: "info",
          WORKER_POLL_INTERVAL_MS: "50",
        });
        const listening = /"url":"(http:[^"]+)"[^\n]*"msg":"velvet is listening"/;
        await waitFor("the server to listen", () => listening.test(velvet?.stdout() ?? ""), 20_000);
        const url = listening.exec(velvet.stdout())?.[1] as string;
        const answers = await postOrders(
          url,
          account.apiKey,
          Array.from({ length: ORDERS }, () => order()),
        );
        expect(answers).toEqual(Array(ORDERS).fill(200));
        await waitFor("the orders to be enriched", enriched, 20_000);
        await expectCleanStop(velvet, signal);
      });

      it(`velvet worker exits 0 on ${signal} after enriching orders`, async () => {
        for (let i = 0; i < ORDERS; i++) {
          await submitOrder(deps, account, order(), { requestId: `req-stop-${i}` });
        }
        velvet = spawnVelvet(["worker"], database.url, {
          LOG_LEVEL: "info",
          WORKER_POLL_INTERVAL_MS: "50",
        });
        await waitFor("the orders to be enriched", enriched, 20_000);
        await expectCleanStop(velvet, signal);
      });
    }
  });
}
