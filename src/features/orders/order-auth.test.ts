/**
 * Authentication of POST /api/v1/orders: the exact 401 body for every way a key can be wrong,
 * both header forms, authentication before validation, revocation effective at once (also on
 * a second node), and last-use tracking.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  request,
  submitJson,
  UNAUTHORIZED,
  UUID_RE,
  validBody,
} from "../../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { generateApiKey } from "../api-keys/key-format.js";
import { revokeApiKey } from "../api-keys/revoke-api-key.js";

/** Changes one character of the key's random part, keeping its shape. */
function withOneCharChanged(key: string, index: number): string {
  const c = key[index] === "a" ? "b" : "a";
  return key.slice(0, index) + c + key.slice(index + 1);
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`order authentication on ${engine.name}`, () => {
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
    });
    afterAll(() => app?.close());

    const post = (headers: Record<string, string>, body: unknown = validBody()) =>
      request(app, {
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(body),
      });

    async function expect401(res: Response) {
      expect(res.status).toBe(401);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(await res.json()).toEqual(UNAUTHORIZED);
    }

    it("refuses a request without a key", async () => {
      await expect401(await post({}));
    });

    it("refuses malformed keys: wrong prefix, short, empty bearer, other scheme", async () => {
      const good = account.apiKey;
      await expect401(await post({ authorization: `Bearer sk_test_${good.slice(8)}` }));
      await expect401(await post({ authorization: `Bearer ${good.slice(0, -1)}` }));
      await expect401(await post({ authorization: `Bearer ${good}x` }));
      await expect401(await post({ authorization: "Bearer " }));
      await expect401(await post({ authorization: `Basic ${good}` }));
      await expect401(await post({ authorization: good }));
      await expect401(await post({ "x-api-key": "" }));
      await expect401(await post({ "x-api-key": "not-a-key" }));
    });

    it("refuses a key whose checksum does not match", async () => {
      await expect401(
        await post({ authorization: `Bearer ${withOneCharChanged(account.apiKey, 10)}` }),
      );
      await expect401(await post({ "x-api-key": withOneCharChanged(account.apiKey, 45) }));
    });

    it("refuses a well-formed key that was never issued", async () => {
      await expect401(await post({ authorization: `Bearer ${generateApiKey()}` }));
      await expect401(await post({ "x-api-key": generateApiKey() }));
    });

    it("accepts the key as Bearer (any case of the scheme) and as x-api-key", async () => {
      const forms: Array<Record<string, string>> = [
        { authorization: `Bearer ${account.apiKey}` },
        { authorization: `bearer ${account.apiKey}` },
        { authorization: `BEARER   ${account.apiKey}` },
        { "x-api-key": account.apiKey },
      ];
      for (const headers of forms) {
        const res = await post(headers);
        expect(res.status, JSON.stringify(headers)).toBe(200);
        const body = (await res.json()) as Record<string, unknown>;
        expect(body.customerId).toMatch(UUID_RE);
      }
    });

    it("authenticates before it validates: a bad body without a good key is a 401", async () => {
      await expect401(await post({}, { email: "not-an-email" }));
      await expect401(await post({ "x-api-key": generateApiKey() }, []));
      await expect401(
        await request(app, { headers: { "content-type": "application/json" }, body: "{oops" }),
      );
      await expect401(
        await request(app, { headers: { "content-type": "text/plain" }, body: "hello" }),
      );
    });

    it("stores only a hash of the key and records its last use", async () => {
      const fresh = await app.createAccount();
      const before = await app.deps.db.kysely
        .selectFrom("api_keys")
        .selectAll()
        .where("id", "=", fresh.keyId)
        .executeTakeFirstOrThrow();
      expect(before.last_used_at).toBeNull();
      expect(Object.values(before)).not.toContain(fresh.apiKey);
      expect(before.last4).toBe(fresh.apiKey.slice(-4));

      const start = Date.now();
      expect((await submitJson(app, fresh.apiKey, validBody())).status).toBe(200);
      const after = await app.deps.db.kysely
        .selectFrom("api_keys")
        .select("last_used_at")
        .where("id", "=", fresh.keyId)
        .executeTakeFirstOrThrow();
      expect(after.last_used_at).toBeGreaterThanOrEqual(start);
      expect(after.last_used_at).toBeLessThanOrEqual(Date.now());
    });

    it("refuses a revoked key on the very next request, and keeps other keys working", async () => {
      const victim = await app.createAccount();
      const other = await app.createAccount();
      expect((await submitJson(app, victim.apiKey, validBody())).status).toBe(200);
      expect(await revokeApiKey(app.deps.db.kysely, victim.keyId, Date.now())).toBe("revoked");
      const res = await app.submit(victim.apiKey, validBody());
      await expect401(res);
      expect((await submitJson(app, other.apiKey, validBody())).status).toBe(200);
    });
  });
}

const postgres = ENGINES.find((e) => e.name === "postgres");
describe.skipIf(!postgres?.available)("order authentication across two nodes on postgres", () => {
  it("a key revoked through one node is refused by the other at once", async () => {
    if (!postgres) return;
    const first = await startTestApp(postgres);
    const second = await startTestApp(postgres, { database: first.database });
    try {
      const account = await first.createAccount();
      expect((await submitJson(second, account.apiKey, validBody())).status).toBe(200);
      expect((await submitJson(first, account.apiKey, validBody())).status).toBe(200);
      await revokeApiKey(first.deps.db.kysely, account.keyId, Date.now());
      const res = await second.submit(account.apiKey, validBody());
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual(UNAUTHORIZED);
    } finally {
      await second.close();
      await first.close();
    }
  });
});
