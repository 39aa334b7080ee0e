/**
 * Key lookups in bursts: on PostgreSQL the lookups that arrive together go to the database as
 * one statement (find-live-keys.ts). Each request must still get its own key's answer, a revoked
 * or unknown key none, and a revocation must hold from the next request on. On SQLite the
 * lookups of one event-loop turn share one read, and the next turn reads again.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { storeRows, submitJson, UNAUTHORIZED, validBody } from "../../../test/support/orders.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { findLiveKeyByHash } from "./find-live-keys.js";
import { generateApiKey, hashApiKey } from "./key-format.js";
import { revokeApiKey } from "./revoke-api-key.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`key lookups in bursts on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(() => app?.close());

    it("answers each lookup of a burst with its own key: two stores, a revoked key, unknown keys, repeats", async () => {
      const a = await app.createAccount();
      const b = await app.createAccount();
      const gone = await app.createAccount();
      await revokeApiKey(app.deps.db.kysely, gone.keyId, Date.now());
      const unknown = generateApiKey();
      const keys = Array.from({ length: 60 }, (_, i) => [a, b, gone, null][i % 4]);
      const rows = await Promise.all(
        keys.map((k) => findLiveKeyByHash(app.deps.db, hashApiKey(k?.apiKey ?? unknown))),
      );
      for (const [i, k] of keys.entries()) {
        const row = rows[i];
        if (k === a || k === b) {
          expect(row?.id).toBe(k.keyId);
          expect(row?.store_id).toBe(k.storeId);
          expect(row?.account_id).toBe(k.accountId);
        } else {
          expect(row).toBeUndefined();
        }
      }
    });

    it("a burst of orders over two stores' keys lands in each key's store; a key revoked before it is refused every time", async () => {
      const a = await app.createAccount();
      const b = await app.createAccount();
      const gone = await app.createAccount();
      await revokeApiKey(app.deps.db.kysely, gone.keyId, Date.now());
      const senders = Array.from({ length: 45 }, (_, i) => [a, b, gone][i % 3]);
      const results = await Promise.all(
        senders.map((k) => submitJson(app, k?.apiKey ?? null, validBody())),
      );
      for (const [i, r] of results.entries()) {
        if (senders[i] === gone) expect(r).toEqual({ status: 401, body: UNAUTHORIZED });
        else expect(r.status, JSON.stringify(r.body)).toBe(200);
      }
      expect((await storeRows(app.deps.db, a.storeId)).customers).toBe(15);
      expect((await storeRows(app.deps.db, b.storeId)).customers).toBe(15);
      expect((await storeRows(app.deps.db, gone.storeId)).customers).toBe(0);
    });

    // SQLite only: PostgreSQL batches the lookups that arrive together instead (first test).
    if (engine.name === "sqlite")
      it("SQLite: the lookups of one turn share one read; the next turn reads again, so a revocation holds", async () => {
        const a = await app.createAccount();
        const reader = app.deps.db.sqlite?.driver.reader;
        if (!reader) throw new Error("a file database has a query-only connection");
        const hash = hashApiKey(a.apiKey);
        const reads = vi.spyOn(reader, "get");
        try {
          const rows = await Promise.all(
            Array.from({ length: 10 }, () => findLiveKeyByHash(app.deps.db, hash)),
          );
          expect(rows.map((r) => r?.id)).toEqual(Array(10).fill(a.keyId));
          expect(reads).toHaveBeenCalledTimes(1);

          await revokeApiKey(app.deps.db.kysely, a.keyId, Date.now());
          await new Promise((resolve) => setImmediate(resolve));
          expect(await findLiveKeyByHash(app.deps.db, hash)).toBeUndefined();
          expect(reads).toHaveBeenCalledTimes(2);
        } finally {
          reads.mockRestore();
        }
      });
  });
}
