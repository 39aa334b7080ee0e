/**
 * A key limited to 600 requests a minute, its requests spread over two `velvet serve` processes
 * on one database (PostgreSQL, and one SQLite file): together they answer no more than 600 with
 * 200 in the window, and not far fewer (the leases each process holds must not strand the
 * budget), and the rest with 429.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { openTestDeps } from "../../../test/support/job-deps.js";
import { validBody } from "../../../test/support/orders.js";
import { type ServeProcess, startServeProcess } from "../../../test/support/serve-process.js";
import type { AppDeps } from "../../app-deps.js";
import { closeDeps } from "../../main.js";
import { createAccount } from "../accounts/create-account.js";

const LIMIT = 600;
const REQUESTS = 800;
const IN_FLIGHT = 8;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a key's limit across two processes (${engine.name})`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    const nodes: ServeProcess[] = [];

    beforeAll(async () => {
      database = await engine.createMigrated();
      deps = await openTestDeps(database);
      const env = { API_RATE_LIMIT_PER_MINUTE: String(LIMIT), LOG_LEVEL: "info" };
      nodes.push(...(await Promise.all([0, 1].map(() => startServeProcess(database.url, env)))));
    }, 60_000);
    afterAll(async () => {
      await Promise.all(nodes.map((n) => n.stop()));
      if (deps) await closeDeps(deps);
      await database?.drop();
    });

    it(`answers at most ${LIMIT} with 200 in the minute, and close to it`, async () => {
      const { apiKey } = await createAccount(
        deps.db.kysely,
        { name: "Flood", ownerEmail: `flood-${Date.now()}@example.com`, passwordHash: null },
        Date.now(),
      );
      const statuses: number[] = [];
      let next = 0;
      const started = Date.now();
      const sender = async () => {
        while (next < REQUESTS) {
          const i = next++;
          const node = nodes[i % 2] as ServeProcess;
          const res = await fetch(`${node.url}/api/v1/orders`, {
            method: "POST",
            headers: { "content-type": "application/json", authorization: `Bearer ${apiKey}` },
            body: JSON.stringify(validBody()),
          });
          await res.arrayBuffer();
          statuses.push(res.status);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, sender));
      // All of it within the key's one-minute window.
      expect(Date.now() - started).toBeLessThan(55_000);
      const ok = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(ok).toBeLessThanOrEqual(LIMIT);
      expect(ok).toBeGreaterThanOrEqual(LIMIT - 20);
      const stored = await deps.db.kysely
        .selectFrom("customers")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow();
      expect(Number(stored.n)).toBe(ok);
    }, 60_000);
  });
}
