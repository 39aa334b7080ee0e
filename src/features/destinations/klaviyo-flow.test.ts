/**
 * The Klaviyo destination end to end, on both engines, against a fake Klaviyo API speaking
 * JSON:API: a VIP's enrichment sets Velvet's properties on the profile (upsert by e-mail), a
 * 429 with Retry-After is waited out without spending an attempt, a key without
 * `profiles:write` fails with Klaviyo's own words, and forgetting the person unsets Velvet's
 * properties while the merchant's profile stays.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeKlaviyo, startFakeKlaviyo } from "../../../test/fakes/klaviyo.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { drainQueue } from "../../../test/support/test-deps.js";
import { systemActor } from "../audit/audit-actor.js";
import { eraseCustomer } from "../privacy/erase-customer.js";
import { addDestination } from "./add-destination.js";
import { KLAVIYO_REVISION } from "./klaviyo/klaviyo-driver.js";
import { testDestination } from "./test-destination.js";

const actor = systemActor("test");

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Klaviyo destination on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let klaviyo: FakeKlaviyo;
    let app: TestApp;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      [fakes, klaviyo] = await Promise.all([startFakeProviders(), startFakeKlaviyo()]);
      const env = {
        ...fakes.env,
        ...STORE_SYNC_ENV,
        GRAVATAR_RATE_LIMIT_PER_MIN: "60000",
        KLAVIYO_BASE_URL: klaviyo.baseUrl,
      };
      app = await startTestApp(engine, { worker: true, env });
      account = await app.createAccount({ name: "Acme Store" });
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), klaviyo?.close()]);
    });

    const submit = async (email: string) => {
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Grace",
        lastName: "Hopper",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: `o-${email}`, total: "1250.00", currency: "USD" },
      });
      return ((await res.json()) as { customerId: string }).customerId;
    };
    const delivery = (customerId: string) =>
      app.deps.db.kysely
        .selectFrom("destination_deliveries")
        .selectAll()
        .where("event_key", "=", `customer.enriched:${customerId}`)
        .executeTakeFirst();

    it("refuses a key that is not a private key", async () => {
      await expect(
        addDestination(app.deps, {
          accountId: account.accountId,
          kind: "klaviyo",
          fields: { apiKey: "abc123" },
          actor,
        }),
      ).rejects.toThrow("private API key (pk_…)");
    });

    it("sets a VIP's properties, waits out a 429, and unsets them when the person is forgotten", async () => {
      const added = await addDestination(app.deps, {
        accountId: account.accountId,
        kind: "klaviyo",
        fields: { apiKey: klaviyo.apiKey },
        actor,
      });
      expect(added.events).toEqual(["customer.enriched", "customer.forgotten"]);
      const tested = await testDestination(app.deps, {
        accountId: account.accountId,
        destinationId: added.destinationId,
      });
      expect(tested).toMatchObject({ outcome: "delivered", statusCode: 200 });
      klaviyo.requests.length = 0;
      klaviyo.throttle(1, 1);
      const email = `grace-${engine.name}-${++n}@navy-systems.com`;
      const customerId = await submit(email);
      await waitFor(
        "delivered",
        async () => (await delivery(customerId))?.status === "delivered",
        20_000,
      );

      const profile = klaviyo.profiles.get(email);
      expect(profile).toMatchObject({ email, first_name: "Grace", last_name: "Hopper" });
      expect(profile?.properties).toMatchObject({ velvet_vip: true, velvet_historical: false });
      expect(profile?.properties.velvet_score).toBeGreaterThan(
        profile?.properties.velvet_threshold as number,
      );
      expect(String(profile?.properties.velvet_reasons)).toMatch(/\(\+\d+\)/);
      const calls = klaviyo.requests.filter((r) => r.path === "/api/profile-import");
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call.headers.authorization).toBe(`Klaviyo-API-Key ${klaviyo.apiKey}`);
        expect(call.headers.revision).toBe(KLAVIYO_REVISION);
      }
      // The 429 was logged but spent no attempt.
      const row = await delivery(customerId);
      expect(row?.attempts).toBe(1);
      const attempts = await app.deps.db.kysely
        .selectFrom("destination_attempts")
        .select(["outcome", "status_code", "error"])
        .where("delivery_id", "=", row?.id ?? "")
        .orderBy("attempted_at")
        .execute();
      expect(attempts.map((a) => [a.outcome, a.status_code])).toEqual([
        ["retry", 429],
        ["delivered", 201],
      ]);
      expect(attempts[0]?.error).toContain("throttled: Request was throttled.");

      // The merchant's own property stays through the erasure; Velvet's go.
      (profile as { properties: Record<string, unknown> }).properties.loyalty_tier = "gold";
      await eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { customerId },
        actor,
      });
      await waitFor(
        "unset",
        () =>
          !Object.keys(klaviyo.profiles.get(email)?.properties ?? {}).some((k) =>
            k.startsWith("velvet_"),
          ),
        20_000,
      );
      expect(klaviyo.profiles.get(email)).toMatchObject({
        first_name: "Grace",
        properties: { loyalty_tier: "gold" },
      });
    });

    it("does not create a profile to forget someone Klaviyo was never sent", async () => {
      const other = await app.createAccount({ name: "Late Klaviyo" });
      const email = `late-${engine.name}-${++n}@navy-systems.com`;
      const res = await app.submit(other.apiKey, { email, firstName: "La", lastName: "Te" });
      const { customerId } = (await res.json()) as { customerId: string };
      await waitFor("enriched", async () => {
        const c = await app.deps.db.kysely
          .selectFrom("customers")
          .select("enrichment_status")
          .where("id", "=", customerId)
          .executeTakeFirst();
        return c?.enrichment_status === "enriched";
      });
      // Klaviyo is added after this customer's enrichment: it never heard of them.
      await addDestination(app.deps, {
        accountId: other.accountId,
        kind: "klaviyo",
        fields: { apiKey: klaviyo.apiKey },
        actor,
      });
      await eraseCustomer(app.deps, { accountId: other.accountId, lookup: { customerId }, actor });
      await drainQueue(app.deps);
      expect(klaviyo.profiles.has(email)).toBe(false);
      expect(klaviyo.requests.filter((r) => JSON.stringify(r.body).includes(email))).toEqual([]);
    });

    it("fails a key without profiles:write with Klaviyo's own words", async () => {
      const other = await app.createAccount({ name: "Read Only" });
      await addDestination(app.deps, {
        accountId: other.accountId,
        kind: "klaviyo",
        fields: { apiKey: klaviyo.readOnlyKey },
        actor,
      });
      const res = await app.submit(other.apiKey, {
        email: `ro-${engine.name}-${++n}@navy-systems.com`,
        firstName: "Ro",
        lastName: "Key",
      });
      const { customerId } = (await res.json()) as { customerId: string };
      await waitFor(
        "failed",
        async () => (await delivery(customerId))?.status === "failed",
        20_000,
      );
      expect((await delivery(customerId))?.last_error).toBe(
        "403 permission_denied: This API key is missing required scopes: profiles:write.",
      );
    });
  });
}
