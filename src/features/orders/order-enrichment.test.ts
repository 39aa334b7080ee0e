/**
 * enrichmentStatus and its side effects: a new customer is queued with exactly one job and one
 * usage charge; a failed one is requeued (job row reset, no new charge) and answered `retry`;
 * a pending one is `queued`; an enriched one is `existing`, never charged again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  manualClock,
  storeRows,
  submitJson,
  uniqueEmail,
  validBody,
} from "../../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import type { EnrichmentStatus } from "../../db/schema.js";

const T0 = Date.UTC(2025, 2, 15, 12, 0, 0);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`enrichment status on ${engine.name}`, () => {
    const clock = manualClock(T0);
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine, { clock, env: { ENRICHMENT_PRICE_USD: "0.03" } });
      account = await app.createAccount();
    });
    afterAll(() => app?.close());

    const db = () => app.deps.db.kysely;
    const jobOf = (customerId: string) =>
      db()
        .selectFrom("jobs")
        .selectAll()
        .where("job_key", "=", `enrich-customer:${customerId}`)
        .execute();
    const chargesOf = (customerId: string) =>
      db().selectFrom("usage_charges").selectAll().where("customer_id", "=", customerId).execute();
    const setStatus = (customerId: string, status: EnrichmentStatus) =>
      db()
        .updateTable("customers")
        .set({ enrichment_status: status })
        .where("id", "=", customerId)
        .execute();

    async function newCustomer(email = uniqueEmail()): Promise<string> {
      const res = await submitJson(app, account.apiKey, validBody({ email }));
      expect(res).toMatchObject({ status: 200, body: { enrichmentStatus: "queued" } });
      return res.body.customerId as string;
    }

    it("queues a new customer: one enrich-customer job and one charge at the configured price", async () => {
      clock.set(T0);
      const store = await app.createAccount();
      const res = await submitJson(app, store.apiKey, validBody());
      expect(res.body.enrichmentStatus).toBe("queued");
      const id = res.body.customerId as string;

      const jobs = await jobOf(id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({
        task: "enrich-customer",
        attempts: 0,
        run_at: T0,
        last_error: null,
      });
      expect(JSON.parse(jobs[0]?.payload ?? "null")).toEqual({ customerId: id });

      const charges = await chargesOf(id);
      expect(charges).toHaveLength(1);
      expect(charges[0]).toMatchObject({
        account_id: store.accountId,
        store_id: store.storeId,
        unit_price_usd: "0.03",
        created_at: T0,
      });
      expect(await storeRows(app.deps.db, store.storeId)).toEqual({
        customers: 1,
        orders: 0,
        charges: 1,
        jobs: 1,
      });
    });

    it("answers queued while enrichment is pending, without a new job or charge", async () => {
      const email = uniqueEmail();
      const id = await newCustomer(email);
      const again = await submitJson(app, account.apiKey, validBody({ email }));
      expect(again.body).toEqual({ success: true, customerId: id, enrichmentStatus: "queued" });
      expect(await jobOf(id)).toHaveLength(1);
      expect(await chargesOf(id)).toHaveLength(1);
    });

    it("moves a pending customer's queued backfill enrichment to the live queue on a live order", async () => {
      const email = uniqueEmail();
      const id = await newCustomer(email);
      await db()
        .updateTable("jobs")
        .set({ priority: 1, payload: JSON.stringify({ customerId: id, alerts: false }) })
        .where("job_key", "=", `enrich-customer:${id}`)
        .execute();
      const again = await submitJson(app, account.apiKey, validBody({ email }));
      expect(again.body).toEqual({ success: true, customerId: id, enrichmentStatus: "queued" });
      const [job] = await jobOf(id);
      expect(job).toMatchObject({ priority: 0, payload: JSON.stringify({ customerId: id }) });
      expect(await chargesOf(id)).toHaveLength(1);
    });

    it("answers existing for an enriched customer, with no new charge or job", async () => {
      const email = uniqueEmail();
      const id = await newCustomer(email);
      await setStatus(id, "enriched");
      await db().deleteFrom("jobs").where("job_key", "=", `enrich-customer:${id}`).execute();
      const again = await submitJson(
        app,
        account.apiKey,
        validBody({ email, order: { id: `o-${id}` } }),
      );
      expect(again.body).toMatchObject({ customerId: id, enrichmentStatus: "existing" });
      expect(await chargesOf(id)).toHaveLength(1);
      expect(await jobOf(id)).toHaveLength(0);
      expect(
        (
          await db()
            .selectFrom("customers")
            .select("enrichment_status")
            .where("id", "=", id)
            .executeTakeFirstOrThrow()
        ).enrichment_status,
      ).toBe("enriched");
    });

    it("retries a failed customer: requeues the same job row, sets pending, charges nothing", async () => {
      clock.set(T0);
      const email = uniqueEmail();
      const id = await newCustomer(email);
      const [job] = await jobOf(id);
      // What a worker leaves behind after giving up.
      await setStatus(id, "failed");
      await db()
        .updateTable("jobs")
        .set({ attempts: 3, last_error: "provider outage", run_at: T0 + 99_000 })
        .where("job_key", "=", `enrich-customer:${id}`)
        .execute();

      const later = T0 + 3_600_000;
      clock.set(later);
      const again = await submitJson(
        app,
        account.apiKey,
        validBody({ email: email.toUpperCase() }),
      );
      expect(again).toEqual({
        status: 200,
        body: { success: true, customerId: id, enrichmentStatus: "retry" },
      });
      const jobs = await jobOf(id);
      expect(jobs).toHaveLength(1);
      expect(jobs[0]).toMatchObject({
        id: job?.id,
        task: "enrich-customer",
        attempts: 0,
        run_at: later,
        last_error: null,
        updated_at: later,
      });
      const row = await db()
        .selectFrom("customers")
        .select("enrichment_status")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      expect(row.enrichment_status).toBe("pending");
      expect(await chargesOf(id)).toHaveLength(1);

      // The retry is now running: the next submission is queued, not another retry.
      const third = await submitJson(app, account.apiKey, validBody({ email }));
      expect(third.body.enrichmentStatus).toBe("queued");
      expect(await chargesOf(id)).toHaveLength(1);
    });

    it("requeues a failed customer whose job row is gone", async () => {
      clock.set(T0);
      const email = uniqueEmail();
      const id = await newCustomer(email);
      await setStatus(id, "failed");
      await db().deleteFrom("jobs").where("job_key", "=", `enrich-customer:${id}`).execute();
      const again = await submitJson(app, account.apiKey, validBody({ email }));
      expect(again.body.enrichmentStatus).toBe("retry");
      expect(await jobOf(id)).toMatchObject([{ task: "enrich-customer", attempts: 0, run_at: T0 }]);
      expect(await chargesOf(id)).toHaveLength(1);
    });
  });
}
