/**
 * Key lookups in bursts: on PostgreSQL the lookups that arrive together go to the database as
 * one statement (find-live-keys.ts). Each request must still get its own key's answer, a revoked
 * or unknown key none, and a revocation must hold from the next request on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
  });
}
