/**
 * The per-key rate limit on POST /api/v1/orders, through real HTTP on both engines: the IETF
 * headers on every admitted request, a 429 with Retry-After once the key is over its limit
 * (checked after authentication, before validation and before any write), other keys served,
 * the account's own limit (and 0 = none), and a new window after a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { UNAUTHORIZED, validBody } from "../../../test/support/orders.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { updateAccount } from "../accounts/update-account.js";
import { createApiKey } from "../api-keys/create-api-key.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`per-key rate limit on ${engine.name}`, () => {
    let app: TestApp;
    let now = Date.UTC(2026, 10, 1, 12, 0, 0);
    beforeAll(async () => {
      app = await startTestApp(engine, {
        env: { API_RATE_LIMIT_PER_MINUTE: "3" },
        clock: { now: () => now },
      });
    });
    afterAll(() => app?.close());

    const customers = async (storeId: string) =>
      Number(
        (
          await app.deps.db.kysely
            .selectFrom("customers")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("store_id", "=", storeId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("sends the policy and what is left, then 429s with Retry-After; others are served", async () => {
      const flooder = await app.createAccount();
      const other = await app.createAccount();
      for (let i = 1; i <= 3; i++) {
        const res = await app.submit(flooder.apiKey, validBody());
        expect(res.status).toBe(200);
        expect(res.headers.get("ratelimit-policy")).toBe('"per-key";q=3;w=60');
        expect(res.headers.get("ratelimit")).toBe(`"per-key";r=${3 - i};t=60`);
      }
      const lastUsed = await app.deps.db.kysely
        .selectFrom("api_keys")
        .select("last_used_at")
        .where("id", "=", flooder.keyId)
        .executeTakeFirstOrThrow();
      now += 15_000;
      // Over the limit: refused before the body is read (this one is not even valid) and
      // before anything is written.
      const refused = await app.submit(flooder.apiKey, { not: "an order" });
      expect(refused.status).toBe(429);
      expect(refused.headers.get("retry-after")).toBe("45");
      expect(refused.headers.get("ratelimit")).toBe('"per-key";r=0;t=45');
      expect(refused.headers.get("ratelimit-policy")).toBe('"per-key";q=3;w=60');
      expect(refused.headers.get("x-request-id")).toEqual(expect.any(String));
      expect(await refused.json()).toEqual({
        error: "Too Many Requests",
        message: "Rate limit of 3 requests per minute exceeded for this API key; retry in 45 s",
      });
      expect(await customers(flooder.storeId)).toBe(3);
      const after = await app.deps.db.kysely
        .selectFrom("api_keys")
        .select("last_used_at")
        .where("id", "=", flooder.keyId)
        .executeTakeFirstOrThrow();
      expect(after.last_used_at).toBe(lastUsed.last_used_at);

      // Another key is unaffected; a wrong key is still a 401, not a 429.
      const served = await app.submit(other.apiKey, validBody());
      expect(served.status).toBe(200);
      expect(served.headers.get("ratelimit")).toBe('"per-key";r=2;t=60');
      const wrong = await app.submit(null, validBody());
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual(UNAUTHORIZED);

      // A minute after the window began, the key is served again.
      now += 45_000;
      const again = await app.submit(flooder.apiKey, validBody());
      expect(again.status).toBe(200);
      expect(again.headers.get("ratelimit")).toBe('"per-key";r=2;t=60');
    });

    it("applies the account's own limit on the next request, and 0 lifts it", async () => {
      const account = await app.createAccount();
      await updateAccount(app.deps.db.kysely, account.accountId, { apiRateLimitPerMinute: 1 });
      expect((await app.submit(account.apiKey, validBody())).status).toBe(200);
      const refused = await app.submit(account.apiKey, validBody());
      expect(refused.status).toBe(429);
      expect(refused.headers.get("ratelimit-policy")).toBe('"per-key";q=1;w=60');

      await updateAccount(app.deps.db.kysely, account.accountId, { apiRateLimitPerMinute: 0 });
      for (let i = 0; i < 5; i++) {
        const res = await app.submit(account.apiKey, validBody());
        expect(res.status).toBe(200);
        expect(res.headers.get("ratelimit")).toBeNull();
      }
      // null: back to the default (3), counted in the window already running.
      await updateAccount(app.deps.db.kysely, account.accountId, { apiRateLimitPerMinute: null });
      const back = await app.submit(account.apiKey, validBody());
      expect(back.headers.get("ratelimit-policy")).toBe('"per-key";q=3;w=60');
    });

    it("counts each key of an account on its own", async () => {
      const account = await app.createAccount();
      const second = await createApiKey(app.deps.db.kysely, account.storeId, now);
      for (let i = 0; i < 3; i++) await app.submit(account.apiKey, validBody());
      expect((await app.submit(account.apiKey, validBody())).status).toBe(429);
      expect((await app.submit(second.apiKey, validBody())).status).toBe(200);
    });
  });
}

describe("API_RATE_LIMIT_PER_MINUTE=0", () => {
  it("turns the limit off: no headers", async () => {
    const engine = ENGINES[0];
    if (engine === undefined) throw new Error("no engine");
    const app = await startTestApp(engine, { env: { API_RATE_LIMIT_PER_MINUTE: "0" } });
    try {
      const account = await app.createAccount();
      const res = await app.submit(account.apiKey, validBody());
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-policy")).toBeNull();
    } finally {
      await app.close();
    }
  });
});
