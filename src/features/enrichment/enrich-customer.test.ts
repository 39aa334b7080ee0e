/**
 * The whole enrichment flow through the real app: HTTP submission → outbox job → worker →
 * providers (wire-format fakes on loopback) → score → stored result, on both engines.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { newId } from "../../lib/ids.js";
import { getCustomerReport } from "../customers/get-customer-report.js";
import { ENRICH_CUSTOMER_TASK } from "./enqueue-enrichment.js";
import { PROVIDER_NAMES } from "./providers/provider-registry.js";

// Gravatar's default limit (16/min, its documented anonymous quota) would pace these tests.
const FAST_RETRIES = {
  ENRICHMENT_MAX_ATTEMPTS: "3",
  PROVIDER_TIMEOUT_MS: "2000",
  GRAVATAR_RATE_LIMIT_PER_MIN: "6000",
};

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`enrichment flow on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let app: TestApp;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      fakes = await startFakeProviders();
      app = await startTestApp(engine, { worker: true, env: { ...fakes.env, ...FAST_RETRIES } });
      account = await app.createAccount();
    });
    afterAll(async () => {
      await app?.close();
      await fakes?.close();
    });
    afterEach(() => {
      for (const fake of fakes.all()) fake.reset();
    });

    const email = () => `flow-${engine.name}-${++n}-${Date.now()}@acme-corp.com`;
    const submit = async (address: string, orderId?: string) => {
      const res = await app.submit(account.apiKey, {
        email: address,
        firstName: "Ada",
        lastName: "Lovelace",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        ...(orderId ? { order: { id: orderId, number: `#${orderId}`, total: "950.00" } } : {}),
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { customerId: string; enrichmentStatus: string };
    };
    const report = (address: string) =>
      getCustomerReport(app.deps.db.kysely, account.accountId, { email: address });
    const statusOf = async (address: string) => (await report(address))?.enrichment.status;
    const charges = async (customerId: string) =>
      (
        await app.deps.db.kysely
          .selectFrom("usage_charges")
          .selectAll()
          .where("customer_id", "=", customerId)
          .execute()
      ).length;

    it("enriches a new customer within seconds, with an explained score", async () => {
      const address = email();
      const answer = await submit(address, `o-${n}`);
      expect(answer.enrichmentStatus).toBe("queued");
      await waitFor("enriched", async () => (await statusOf(address)) === "enriched", 15_000);

      const r = await report(address);
      const e = r?.enrichment;
      expect(e?.score).toBeGreaterThan(70);
      expect(e?.vip).toBe(true);
      expect(e?.threshold).toBe(70);
      const signals = e?.signals as Array<{ source: string; signal: string; points: number }>;
      expect(signals.reduce((sum, s) => sum + s.points, 0)).toBe(e?.score);
      expect(signals.some((s) => s.signal === "seniority" && s.points > 0)).toBe(true);
      expect(e?.profile).toMatchObject({ company: expect.any(String) });
      for (const fake of fakes.all()) expect(fake.requestCount()).toBe(1);

      const raw = await app.deps.db.kysely
        .selectFrom("provider_results")
        .select(["provider", "outcome", "raw"])
        .where("customer_id", "=", answer.customerId)
        .execute();
      // Every provider the fakes turn on (all those declared) answered, and its answer is kept.
      expect(raw.map((x) => x.provider).sort()).toEqual([...PROVIDER_NAMES].sort());
      expect(raw.every((x) => x.outcome === "matched" && x.raw !== null)).toBe(true);

      const again = await submit(address, `o-${n}-b`);
      expect(again.enrichmentStatus).toBe("existing");
      expect(await charges(answer.customerId)).toBe(1);
    });

    it("outage → failed with partial results; next order → retry → enriched; one charge", async () => {
      const address = email();
      fakes.pdl.setBehaviour(address, { kind: "error", status: 503 });
      const first = await submit(address, `o-${n}`);
      await waitFor("failed", async () => (await statusOf(address)) === "failed", 20_000);

      const failed = await report(address);
      expect(failed?.enrichment.lastError).toMatch(/pdl/);
      expect(failed?.enrichment.attempts).toBe(3);
      expect(fakes.pdl.requestCount()).toBe(3);
      // The providers that answered were asked once and their answers kept.
      expect(fakes.enrichlayer.requestCount()).toBe(1);

      fakes.pdl.setBehaviour(address, { kind: "match" });
      const retried = await submit(address, `o-${n}-b`);
      expect(retried).toMatchObject({ customerId: first.customerId, enrichmentStatus: "retry" });
      await waitFor(
        "enriched after retry",
        async () => (await statusOf(address)) === "enriched",
        15_000,
      );

      const done = await report(address);
      expect(done?.enrichment.score).toBeGreaterThan(0);
      expect(done?.enrichment.lastError).toBeNull();
      expect(fakes.enrichlayer.requestCount()).toBe(1);
      expect(await charges(first.customerId)).toBe(1);
    });

    it("a provider's 429 with Retry-After is waited out without spending attempts", async () => {
      const address = email();
      const limited = { kind: "rate_limited" as const, retryAfter: "1" };
      fakes.pdl.setBehaviour(address, [limited, limited, limited, { kind: "match" }]);
      await submit(address);
      await waitFor("enriched", async () => (await statusOf(address)) === "enriched", 20_000);
      expect(fakes.pdl.requestCount()).toBe(4);
      // Three waits and one real attempt: more 429s than ENRICHMENT_MAX_ATTEMPTS, yet no failure.
      expect((await report(address))?.enrichment.attempts).toBe(1);
    });

    it("a permanent provider failure is recorded but does not block the score", async () => {
      const address = email();
      fakes.fullcontact.setBehaviour(address, { kind: "error", status: 401 });
      await submit(address);
      await waitFor("enriched", async () => (await statusOf(address)) === "enriched", 15_000);
      const r = await report(address);
      expect(r?.enrichment.lastError).toMatch(/fullcontact/);
      expect(fakes.fullcontact.requestCount()).toBe(1);
    });

    it("a customer nobody knows is scored on offline signals alone, below the threshold", async () => {
      const address = `nobody-${engine.name}-${Date.now()}@gmail.com`;
      for (const fake of fakes.all()) fake.setBehaviour(address, { kind: "not_found" });
      await submit(address);
      await waitFor("enriched", async () => (await statusOf(address)) === "enriched", 15_000);
      const r = await report(address);
      expect(r?.enrichment.vip).toBe(false);
      expect(r?.enrichment.score).toBeLessThanOrEqual(70);
      const signals = r?.enrichment.signals as Array<{ signal: string; value: unknown }>;
      expect(signals.some((s) => s.value === "no provider matched")).toBe(true);
    });

    it("a job for a customer that does not exist fails at once, without retries", async () => {
      const customerId = newId();
      const db = app.deps.db.kysely;
      await enqueueJob(db, { task: ENRICH_CUSTOMER_TASK, payload: { customerId } }, Date.now());
      app.deps.jobs.notify();
      const job = () =>
        db
          .selectFrom("jobs")
          .select(["attempts", "max_attempts", "last_error", "locked_by"])
          .where("payload", "=", JSON.stringify({ customerId }))
          .executeTakeFirstOrThrow();
      // One read: two could see the job before its claim and then under its lease.
      await waitFor("given up", async () => {
        const row = await job();
        return row.locked_by === null && row.attempts > 0;
      });
      const given = await job();
      expect(given.attempts).toBe(given.max_attempts);
      expect(given.last_error).toBe(`customer ${customerId} does not exist`);
    });
  });
}
