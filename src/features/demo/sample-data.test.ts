/**
 * Sample data on both engines, through the real app and its worker: the generated history is
 * imported, marked as sample, enriched and scored (at least one VIP with its explanation) on the
 * offline signals alone (no provider is asked about a sample person), never charged and never
 * alerted even with an alert channel and a webhook destination set; adding it again imports
 * nothing; removing it erases every sample customer and leaves the real ones, tells no
 * destination, and is audited.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../test/fakes/webhook-receiver.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { writeChannelValues } from "../alerts/channels/channel-registry.js";
import { cliActor } from "../audit/audit-actor.js";
import { listAuditEvents } from "../audit/list-audit-events.js";
import { addDestination } from "../destinations/add-destination.js";
import { addSampleData, countSampleCustomers, removeSampleData } from "./sample-data.js";
import { SAMPLE_CUSTOMERS, sampleHistory, spreadZips } from "./sample-history.js";

describe("the sample history", () => {
  it("spreads ZIP codes over the Census table and names people only at example domains", () => {
    const zips = spreadZips(SAMPLE_CUSTOMERS);
    expect(new Set(zips).size).toBe(SAMPLE_CUSTOMERS);
    const orders = sampleHistory("00000000-0000-7000-8000-000000000000", Date.UTC(2026, 0, 31));
    expect(new Set(orders.map((o) => o.email)).size).toBe(SAMPLE_CUSTOMERS);
    expect(orders.length).toBeGreaterThan(SAMPLE_CUSTOMERS);
    expect(orders.every((o) => /@example\.(com|org|net)$/.test(o.email))).toBe(true);
    const totals = orders.map((o) => Number(o.total)).sort((a, b) => a - b);
    expect(totals[0]).toBeLessThan(50);
    expect(totals.at(-1)).toBeGreaterThanOrEqual(2_500);
    expect(sampleHistory("00000000-0000-7000-8000-000000000000", Date.UTC(2026, 0, 31))).toEqual(
      orders,
    );
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`sample data (${engine.name})`, { timeout: 120_000 }, () => {
    let app: TestApp;
    let account: TestAccount;
    let fakes: FakeProviders;
    let receiver: FakeWebhookReceiver;
    const actor = cliActor("tester");
    const providerCalls = () =>
      fakes.pdl.requestCount() +
      fakes.enrichlayer.requestCount() +
      fakes.fullcontact.requestCount() +
      fakes.gravatar.requestCount();
    beforeAll(async () => {
      [fakes, receiver] = await Promise.all([startFakeProviders(), startWebhookReceiver()]);
      app = await startTestApp(engine, {
        worker: true,
        env: {
          ...fakes.env,
          ...STORE_SYNC_ENV,
          GRAVATAR_RATE_LIMIT_PER_MIN: "60000",
          WEBHOOKS_ALLOW_PRIVATE: "true",
        },
      });
      account = await app.createAccount();
      // Every event, the forgetting included, would reach this receiver.
      await addDestination(app.deps, {
        accountId: account.accountId,
        kind: "webhook",
        fields: { url: receiver.url },
        events: "customer.enriched,customer.vip,customer.forgotten",
        actor,
      });
      // A channel is set: a VIP among real customers would be alerted by e-mail.
      await writeChannelValues(
        app.deps.db.kysely,
        account.accountId,
        { alert_emails: "vip-team@example.com" },
        null,
      );
      const res = await app.submit(account.apiKey, {
        email: "real@acme.com",
        firstName: "Real",
        lastName: "Buyer",
        order: { id: "1", total: "20.00" },
      });
      expect(res.status).toBe(200);
      await waitFor("the real customer looked up", async () => providerCalls() >= 4, 20_000);
      // Its result, and the deliveries raised with it in the same transaction, are stored after
      // the lookups: the removal test counts those deliveries.
      await waitFor(
        "the real customer enriched",
        async () =>
          (
            await app.deps.db.kysely
              .selectFrom("customers")
              .select("enrichment_status")
              .where("email", "=", "real@acme.com")
              .executeTakeFirst()
          )?.enrichment_status === "enriched",
        20_000,
      );
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), receiver?.close()]);
    });

    const db = () => app.deps.db.kysely;
    const count = async (table: "usage_charges" | "alerts" | "customers" | "forgotten_orders") =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("imports the history as sample: scored, a VIP explained, never charged or alerted", async () => {
      const added = await addSampleData(app.deps, { accountId: account.accountId, actor });
      expect(added.customers).toBe(SAMPLE_CUSTOMERS);
      expect(added.orders).toBeGreaterThan(SAMPLE_CUSTOMERS);
      expect(await countSampleCustomers(app.deps, account.accountId)).toBe(SAMPLE_CUSTOMERS);
      await waitFor(
        "every sample customer enriched",
        async () =>
          (
            await db()
              .selectFrom("customers")
              .select("id")
              .where("sample", "=", 1)
              .where("enrichment_status", "!=", "enriched")
              .execute()
          ).length === 0,
        60_000,
      );
      const vips = await db()
        .selectFrom("enrichments")
        .innerJoin("customers", "customers.id", "enrichments.customer_id")
        .select(["enrichments.score", "enrichments.signals"])
        .where("customers.sample", "=", 1)
        .where("enrichments.vip", "=", 1)
        .execute();
      expect(vips.length).toBeGreaterThanOrEqual(1);
      const signals = JSON.parse(vips[0]?.signals ?? "[]") as Array<{ points: number }>;
      expect(signals.reduce((sum, s) => sum + s.points, 0)).toBe(vips[0]?.score);
      expect(await count("usage_charges")).toBe(1); // the real customer's only
      const sampleAlerts = await db()
        .selectFrom("alerts")
        .innerJoin("customers", "customers.id", "alerts.customer_id")
        .select("alerts.id")
        .where("customers.sample", "=", 1)
        .execute();
      expect(sampleAlerts).toEqual([]);
      // The real customer's lookups only: one per provider.
      expect(providerCalls()).toBe(4);
    });

    it("adds nothing the second time", async () => {
      const again = await addSampleData(app.deps, { accountId: account.accountId, actor });
      expect(again).toMatchObject({ customers: 0, orders: 0 });
      expect(again.skipped).toBeGreaterThan(SAMPLE_CUSTOMERS);
      expect(await count("customers")).toBe(SAMPLE_CUSTOMERS + 1);
    });

    it("removes every sample customer, keeps the real one, and audits both", async () => {
      const removed = await removeSampleData(app.deps, { accountId: account.accountId, actor });
      expect(removed.customers).toBe(SAMPLE_CUSTOMERS);
      expect(await count("customers")).toBe(1);
      expect(await countSampleCustomers(app.deps, account.accountId)).toBe(0);
      expect(await count("usage_charges")).toBe(1);
      // Sample orders are no store's: erasing them remembers none (which would only stop the
      // same sample from being added again).
      expect(await count("forgotten_orders")).toBe(0);
      // Only the real customer was ever handed to the destination, and nobody hears of the
      // sample people going.
      const handed = await db()
        .selectFrom("destination_deliveries")
        .select(["event", "customer_id"])
        .execute();
      const real = await db()
        .selectFrom("customers")
        .select("id")
        .where("email", "=", "real@acme.com")
        .executeTakeFirstOrThrow();
      expect(handed.length).toBeGreaterThan(0);
      expect(handed.map((d) => d.event)).not.toContain("customer.forgotten");
      expect(handed.every((d) => d.customer_id === real.id)).toBe(true);
      const trail = await listAuditEvents(db(), account.accountId, { page: 1 });
      expect(trail.events.map((e) => e.action)).toEqual(
        expect.arrayContaining(["sample_data.added", "sample_data.removed"]),
      );
      // Nothing of it was remembered: the same sample can be added again.
      const again = await addSampleData(app.deps, { accountId: account.accountId, actor });
      expect(again.customers).toBe(SAMPLE_CUSTOMERS);
    });
  });
}
