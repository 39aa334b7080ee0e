/**
 * The Klaviyo destination end to end, on both engines, against a fake Klaviyo API that applies
 * Klaviyo's rules (test/fakes/klaviyo.ts: scopes per endpoint, retired revisions answered 410,
 * an import that creates a missing profile, deletion jobs): a key scoped exactly as the docs say
 * is added and its test passes; a VIP's properties, and nothing else, arrive under the current
 * revision; a 429 is waited out without spending an attempt; a key without `profiles:write`
 * fails with Klaviyo's own words; the person's erasure request deletes the profile through the
 * Data Privacy API and never re-creates one the merchant deleted; without `data-privacy:write`
 * the profile is not re-created either and the attempt log says why it was not deleted;
 * Velvet's retention and the closing of the account never delete a profile, only unset
 * Velvet's properties on the profiles that exist, and neither does a stored body without a
 * reason; a retired revision set through KLAVIYO_REVISION is refused with what to do.
 *
 * The fake's "today" is fixed, so the default revision's retirement in 2028 does not fail it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DOCUMENTED_SCOPES,
  type FakeKlaviyo,
  startFakeKlaviyo,
} from "../../../test/fakes/klaviyo.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { drainQueue } from "../../../test/support/test-deps.js";
import { updateAccount } from "../accounts/update-account.js";
import { systemActor } from "../audit/audit-actor.js";
import { closeAccount } from "../privacy/close-account.js";
import { eraseCustomer } from "../privacy/erase-customer.js";
import { eraseInactiveCustomers } from "../privacy/retention/erase-inactive-customers.js";
import { addDestination } from "./add-destination.js";
import { NO_PRIVACY_SCOPE_NOTE } from "./klaviyo/klaviyo-forget.js";
import { testDestination } from "./test-destination.js";

const actor = systemActor("test");
const DAY = 86_400_000;
/** The fake Klaviyo's today (its revision rule), not the wall clock's. */
const TODAY = Date.UTC(2026, 10, 27);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Klaviyo destination on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let klaviyo: FakeKlaviyo;
    let app: TestApp;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      [fakes, klaviyo] = await Promise.all([
        startFakeProviders(),
        startFakeKlaviyo({ now: () => TODAY }),
      ]);
      const env = {
        ...fakes.env,
        ...STORE_SYNC_ENV,
        GRAVATAR_RATE_LIMIT_PER_MIN: "60000",
        KLAVIYO_BASE_URL: klaviyo.baseUrl,
      };
      app = await startTestApp(engine, { worker: true, env });
      account = await app.createAccount({ name: "Acme Store" });
      // A VIP scores above the threshold of 70, so from 71: the Gold tier.
      await updateAccount(app.deps.db.kysely, account.accountId, {
        tiers: [{ name: "Gold", floor: 71 }],
      });
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), klaviyo?.close()]);
    });

    const submit = async (to: TestAccount, email: string) => {
      const res = await app.submit(to.apiKey, {
        email,
        firstName: "Grace",
        lastName: "Hopper",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: `o-${email}`, total: "1250.00", currency: "USD" },
      });
      return ((await res.json()) as { customerId: string }).customerId;
    };
    const delivery = (eventKey: string) =>
      app.deps.db.kysely
        .selectFrom("destination_deliveries")
        .selectAll()
        .where("event_key", "=", eventKey)
        .executeTakeFirst();
    const delivered = (customerId: string) =>
      waitFor(
        "delivered",
        async () => (await delivery(`customer.enriched:${customerId}`))?.status === "delivered",
        20_000,
      );
    /** The customer.forgotten delivery's attempts to this destination, oldest first. */
    const forgetAttempts = async (destinationId: string) => {
      await drainQueue(app.deps, 20_000);
      return app.deps.db.kysely
        .selectFrom("destination_attempts as a")
        .innerJoin("destination_deliveries as d", "d.id", "a.delivery_id")
        .select(["a.outcome", "a.status_code", "a.error", "d.status", "d.last_error"])
        .where("d.destination_id", "=", destinationId)
        .where("d.event", "=", "customer.forgotten")
        .orderBy("a.attempted_at")
        .execute();
    };
    const withKlaviyo = async (name: string, apiKey: string) => {
      const to = await app.createAccount({ name });
      const added = await addDestination(app.deps, {
        accountId: to.accountId,
        kind: "klaviyo",
        fields: { apiKey },
        actor,
      });
      return { to, destinationId: added.destinationId, events: added.events };
    };

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

    it("takes a key scoped as documented, sets only Velvet's properties under the current revision, waits out a 429 and deletes the profile when the person asks to be erased", async () => {
      const added = await addDestination(app.deps, {
        accountId: account.accountId,
        kind: "klaviyo",
        fields: { apiKey: klaviyo.apiKey },
        actor,
      });
      expect(added.events).toEqual(["customer.enriched", "customer.forgotten"]);
      // The key holds profiles:write (with read) and data-privacy:write, nothing else.
      expect(DOCUMENTED_SCOPES).toEqual(["profiles:write", "data-privacy:write"]);
      const tested = await testDestination(app.deps, {
        accountId: account.accountId,
        destinationId: added.destinationId,
      });
      expect(tested).toMatchObject({ outcome: "delivered", statusCode: 200 });

      // The merchant's profile exists already, with their own name for the person.
      const email = `grace-${engine.name}-${++n}@navy-systems.com`;
      klaviyo.profiles.set(email, {
        id: `merchant-${n}`,
        email,
        first_name: "Admiral",
        properties: { loyalty_tier: "gold" },
      });
      klaviyo.requests.length = 0;
      klaviyo.throttle(1, 1);
      const customerId = await submit(account, email);
      await delivered(customerId);

      const profile = klaviyo.profiles.get(email);
      expect(profile).toMatchObject({ email, first_name: "Admiral" });
      expect(profile?.last_name).toBeUndefined();
      expect(profile?.properties).toMatchObject({
        loyalty_tier: "gold",
        velvet_vip: true,
        velvet_tier: "Gold",
        velvet_historical: false,
      });
      expect(profile?.properties.velvet_score).toBeGreaterThan(
        profile?.properties.velvet_threshold as number,
      );
      expect(String(profile?.properties.velvet_reasons)).toMatch(/\(\+\d+\)/);
      const calls = klaviyo.requests.filter((r) => r.path === "/api/profile-import");
      expect(calls).toHaveLength(2);
      for (const call of calls) {
        expect(call.headers.authorization).toBe(`Klaviyo-API-Key ${klaviyo.apiKey}`);
        expect(call.headers.revision).toBe("2026-10-15");
        expect(
          Object.keys((call.body as { data: { attributes: object } }).data.attributes),
        ).toEqual(["email", "properties"]);
      }
      // The 429 was logged but spent no attempt.
      const row = await delivery(`customer.enriched:${customerId}`);
      expect(row?.attempts).toBe(1);
      const attempts = await app.deps.db.kysely
        .selectFrom("destination_attempts")
        .select(["outcome", "status_code", "error"])
        .where("delivery_id", "=", row?.id ?? "")
        .orderBy("attempted_at")
        .execute();
      expect(attempts.map((a) => [a.outcome, a.status_code])).toEqual([
        ["retry", 429],
        ["delivered", 200],
      ]);
      expect(attempts[0]?.error).toContain("throttled: Request was throttled.");

      klaviyo.requests.length = 0;
      await eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { customerId },
        actor,
      });
      const forgot = await forgetAttempts(added.destinationId);
      expect(forgot.map((a) => [a.outcome, a.status_code, a.error])).toEqual([
        ["delivered", 202, null],
      ]);
      expect(klaviyo.deletionJobs).toContain(email);
      expect(klaviyo.profiles.has(email)).toBe(false);
      expect(klaviyo.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "POST /api/data-privacy-deletion-jobs",
      ]);
    });

    it("does not re-create a profile the merchant deleted when the person is forgotten", async () => {
      const { to, destinationId } = await withKlaviyo("Deleted Profile", klaviyo.apiKey);
      const email = `gone-${engine.name}-${++n}@navy-systems.com`;
      const customerId = await submit(to, email);
      await delivered(customerId);
      klaviyo.profiles.delete(email); // the merchant deleted it in Klaviyo
      await eraseCustomer(app.deps, { accountId: to.accountId, lookup: { customerId }, actor });
      const forgot = await forgetAttempts(destinationId);
      expect(forgot.at(-1)).toMatchObject({ outcome: "delivered", status: "delivered" });
      expect(klaviyo.profiles.has(email)).toBe(false);
    });

    it("without data-privacy:write unsets Velvet's properties on an existing profile, re-creates none, and says the profile was not deleted", async () => {
      const key = klaviyo.keyWith(["profiles:write"]);
      const { to, destinationId } = await withKlaviyo("No Privacy Scope", key);
      const kept = `kept-${engine.name}-${++n}@navy-systems.com`;
      const gone = `gone-${engine.name}-${++n}@navy-systems.com`;
      const [keptId, goneId] = [await submit(to, kept), await submit(to, gone)];
      await Promise.all([delivered(keptId), delivered(goneId)]);
      (klaviyo.profiles.get(kept) as { properties: Record<string, unknown> }).properties.tier =
        "gold";
      klaviyo.profiles.delete(gone);

      await eraseCustomer(app.deps, {
        accountId: to.accountId,
        lookup: { customerId: keptId },
        actor,
      });
      await eraseCustomer(app.deps, {
        accountId: to.accountId,
        lookup: { customerId: goneId },
        actor,
      });
      const forgot = await forgetAttempts(destinationId);
      expect(forgot).toHaveLength(2);
      for (const a of forgot) {
        expect(a).toMatchObject({ outcome: "delivered", status: "delivered" });
        expect(a.error).toContain(NO_PRIVACY_SCOPE_NOTE);
        expect(a.last_error).toBe(a.error);
      }
      expect(forgot.map((a) => a.error)).toEqual(
        expect.arrayContaining([
          expect.stringContaining("Velvet's properties were removed from it"),
          expect.stringContaining("Klaviyo has no profile with this e-mail"),
        ]),
      );
      expect(klaviyo.profiles.get(kept)?.properties).toEqual({ tier: "gold" });
      expect(klaviyo.profiles.has(gone)).toBe(false);
      expect(klaviyo.deletionJobs).not.toContain(kept);
    });

    it("leaves the profile of a customer erased by retention, unsetting only Velvet's properties, and asks for no deletion", async () => {
      const { to, destinationId } = await withKlaviyo("Retention", klaviyo.apiKey);
      const email = `inactive-${engine.name}-${++n}@navy-systems.com`;
      const customerId = await submit(to, email);
      await delivered(customerId);
      const profile = klaviyo.profiles.get(email) as { id: string; properties: object };
      profile.properties = { ...profile.properties, tier: "gold" }; // the merchant's own
      // Inactive for years: created, and last ordering, long before the retention window.
      const longAgo = Date.now() - 3 * 365 * DAY;
      const db = app.deps.db.kysely;
      await db
        .updateTable("orders")
        .set({ created_at: longAgo })
        .where("customer_id", "=", customerId)
        .execute();
      await db
        .updateTable("customers")
        .set({ created_at: longAgo })
        .where("id", "=", customerId)
        .execute();
      const config = app.deps.config;
      const retention = {
        ...app.deps,
        config: { ...config, retention: { ...config.retention, customerDays: 365 } },
      };

      klaviyo.requests.length = 0;
      expect(await eraseInactiveCustomers(retention)).toEqual({ erased: 1, more: false });
      const forgot = await forgetAttempts(destinationId);
      expect(forgot.map((a) => [a.outcome, a.status_code, a.error])).toEqual([
        ["delivered", 200, null],
      ]);
      expect(klaviyo.profiles.get(email)?.id).toBe(profile.id);
      expect(klaviyo.profiles.get(email)?.properties).toEqual({ tier: "gold" });
      expect(klaviyo.deletionJobs).not.toContain(email);
      expect(klaviyo.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
        "GET /api/profiles",
        `PATCH /api/profiles/${profile.id}`,
      ]);
    });

    it("closing the account leaves every Klaviyo profile, unsets Velvet's properties on those that exist, re-creates none and asks for no deletion", async () => {
      const { to, destinationId } = await withKlaviyo("Closing", klaviyo.apiKey);
      const kept = `closing-kept-${engine.name}-${++n}@navy-systems.com`;
      const gone = `closing-gone-${engine.name}-${++n}@navy-systems.com`;
      const [keptId, goneId] = [await submit(to, kept), await submit(to, gone)];
      await Promise.all([delivered(keptId), delivered(goneId)]);
      (klaviyo.profiles.get(kept) as { properties: Record<string, unknown> }).properties.tier =
        "gold";
      klaviyo.profiles.delete(gone); // the merchant deleted it in Klaviyo

      klaviyo.requests.length = 0;
      expect(await closeAccount(app.deps, { accountId: to.accountId, actor })).toMatchObject({
        kind: "closed",
        customers: 2,
      });
      // The worker runs the account's erasure job, then the two customer.forgotten deliveries.
      const forgot = await forgetAttempts(destinationId);
      expect(forgot.map((a) => [a.outcome, a.status_code, a.error])).toEqual([
        ["delivered", 200, null],
        ["delivered", 200, null],
      ]);
      expect(klaviyo.profiles.get(kept)?.properties).toEqual({ tier: "gold" });
      expect(klaviyo.profiles.has(gone)).toBe(false);
      expect(klaviyo.deletionJobs).not.toContain(kept);
      expect(klaviyo.deletionJobs).not.toContain(gone);
      expect(klaviyo.requests.map((r) => r.method).sort()).toEqual(["GET", "GET", "PATCH"]);
    });

    it("keeps the profile for a stored customer.forgotten body that names no reason", async () => {
      const email = `no-reason-${engine.name}-${++n}@navy-systems.com`;
      klaviyo.profiles.set(email, {
        id: `merchant-${n}`,
        email,
        properties: { tier: "gold", velvet_vip: true },
      });
      const driver = app.deps.destinations.get("klaviyo");
      const body = {
        type: "customer.forgotten",
        timestamp: new Date(TODAY).toISOString(),
        data: { customer: { id: "0193-no-reason", email }, storeId: "0193-store" },
      };
      const result = await driver?.send(
        app.deps,
        {
          id: "0193-destination",
          accountId: account.accountId,
          kind: "klaviyo",
          target: "Klaviyo",
          settings: {},
          secret: klaviyo.apiKey,
        },
        { id: "0193-delivery", event: "customer.forgotten", body: JSON.stringify(body) },
        AbortSignal.timeout(10_000),
      );
      expect(result).toEqual({ outcome: "delivered", statusCode: 200, error: null });
      expect(klaviyo.profiles.get(email)?.properties).toEqual({ tier: "gold" });
      expect(klaviyo.deletionJobs).not.toContain(email);
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
      const { to } = await withKlaviyo("Read Only", klaviyo.readOnlyKey);
      const customerId = await submit(to, `ro-${engine.name}-${++n}@navy-systems.com`);
      await waitFor(
        "failed",
        async () => (await delivery(`customer.enriched:${customerId}`))?.status === "failed",
        20_000,
      );
      expect((await delivery(`customer.enriched:${customerId}`))?.last_error).toBe(
        "403 permission_denied: This API key is missing required scopes: profiles:write.",
      );
    });

    it("refuses a retired revision set through KLAVIYO_REVISION, saying what to do", async () => {
      const old = await startTestApp(engine, {
        database: app.database,
        env: {
          ...STORE_SYNC_ENV,
          KLAVIYO_BASE_URL: klaviyo.baseUrl,
          KLAVIYO_REVISION: "2024-10-15",
        },
      });
      try {
        const to = await old.createAccount({ name: "Old Revision" });
        const added = await addDestination(old.deps, {
          accountId: to.accountId,
          kind: "klaviyo",
          fields: { apiKey: klaviyo.apiKey },
          actor,
        });
        const tested = await testDestination(old.deps, {
          accountId: to.accountId,
          destinationId: added.destinationId,
        });
        expect(tested).toMatchObject({ outcome: "failed", statusCode: 410 });
        expect(tested?.error).toContain(
          "Klaviyo no longer serves API revision 2024-10-15: set KLAVIYO_REVISION to Klaviyo's current revision",
        );
        expect(klaviyo.requests.at(-1)?.headers.revision).toBe("2024-10-15");
      } finally {
        await old.close();
      }
    });
  });
}

describe("the fake Klaviyo's revision rule", () => {
  it("answers 400 to a malformed revision and 410 to one retired two years after its date", async () => {
    const klaviyo = await startFakeKlaviyo({ now: () => TODAY });
    try {
      const ask = (revision: string) =>
        fetch(`${klaviyo.baseUrl}/api/profiles?page%5Bsize%5D=1`, {
          headers: { authorization: `Klaviyo-API-Key ${klaviyo.apiKey}`, revision },
        }).then((r) => r.status);
      expect(await ask("2026-13-45")).toBe(400);
      expect(await ask("latest")).toBe(400);
      expect(await ask("2024-10-15")).toBe(410);
      expect(await ask("2024-11-28")).toBe(200);
      expect(await ask("2026-10-15")).toBe(200);
    } finally {
      await klaviyo.close();
    }
  });
});
