/**
 * A customer's story on a running server (API, in-process worker), on both engines:
 * - a first order below the line: `queued`, enriched (one charge, each provider asked once), not
 *   a VIP;
 * - 20 more modest orders ($143.80 each, $3,019.80 in all): `existing` each; the periodic
 *   re-judge promotes them with no provider asked and no charge: one chat alert, one
 *   `customer.vip` to a webhook destination, the moment and reason stored;
 * - five of those orders cancelled in the WooCommerce store and synced: demoted, the webhook told
 *   (`customer.enriched` with `vip: false`, `customer.not_vip`), nobody alerted;
 * - the same orders reinstated: a VIP again, the webhook told (`customer.vip` for this change),
 *   no second alert.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../../test/fakes/chat-server.js";
import { type FakeProviders, startFakeProviders } from "../../../../test/fakes/providers/index.js";
import {
  type FakeWebhookReceiver,
  type ReceivedWebhook,
  startWebhookReceiver,
} from "../../../../test/fakes/webhook-receiver.js";
import {
  type FakeWooCommerce,
  setWooOrderStatus,
  startFakeWooCommerce,
  type WooOrderJson,
  wooOrder,
} from "../../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { waitFor } from "../../../../test/support/job-deps.js";
import { connect, runSync, STORE_SYNC_ENV } from "../../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../../test/support/test-app.js";
import { loadConfig } from "../../../config.js";
import { updateAccount } from "../../accounts/update-account.js";
import { createAlertDelivery } from "../../alerts/alert-deps.js";
import { systemActor } from "../../audit/audit-actor.js";
import { addDestination } from "../../destinations/add-destination.js";
import { PROVIDER_NAMES } from "../providers/provider-registry.js";

const HOUR = 60 * 60 * 1000;
const TOTAL = "143.80";
const LATER_ORDERS = 20;
const CANCELLED = 5;

/** A manager at a mid-size company: a first modest order scores well under the default 70. */
const MANAGER = {
  title: "Engineering Manager",
  pdlLevels: ["manager"],
  companySize: "1001-5000",
  companyRevenue: "$1M-$10M",
  salary: "150,000-250,000",
  linkedinFollowers: 120,
  twitterFollowers: 80,
};

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a customer's story (${engine.name})`, () => {
    let fakes: FakeProviders;
    let chat: FakeChatServer;
    let receiver: FakeWebhookReceiver;
    let woo: FakeWooCommerce;
    let app: TestApp;
    let account: TestAccount;

    beforeAll(async () => {
      [fakes, chat, receiver, woo] = await Promise.all([
        startFakeProviders(),
        startChatServer(),
        startWebhookReceiver(),
        startFakeWooCommerce(),
      ]);
      const env = {
        ...fakes.env,
        ...STORE_SYNC_ENV,
        GRAVATAR_RATE_LIMIT_PER_MIN: "60000",
        WEBHOOKS_ALLOW_PRIVATE: "true",
      };
      const alerts = createAlertDelivery(loadConfig(env), { pacingIntervalMs: 0 });
      app = await startTestApp(engine, { worker: true, env, alerts });
      account = await app.createAccount({ name: "Regulars Inc" });
      await updateAccount(app.deps.db.kysely, account.accountId, {
        channels: { slack_webhook_url: chat.webhookUrl },
      });
      await addDestination(app.deps, {
        accountId: account.accountId,
        kind: "webhook",
        fields: { url: receiver.url },
        actor: systemActor("test"),
      });
    }, 30_000);
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), chat?.close(), receiver?.close(), woo?.close()]);
    });

    const db = () => app.deps.db.kysely;
    const enrichment = (customerId: string) =>
      db()
        .selectFrom("enrichments")
        .innerJoin("customers", "customers.id", "enrichments.customer_id")
        .select([
          "customers.enrichment_status",
          "enrichments.score",
          "enrichments.vip",
          "enrichments.signals",
          "enrichments.vip_since",
          "enrichments.vip_changed_at",
          "enrichments.vip_change_reason",
        ])
        .where("customer_id", "=", customerId)
        .executeTakeFirst();
    const hooks = (customerId: string, type?: string) =>
      receiver.requests.filter(
        (r: ReceivedWebhook) =>
          r.raw.includes(customerId) && (type === undefined || r.body.type === type),
      );
    const chats = (customerId: string) =>
      chat.requests.filter((r) => JSON.stringify(r.body).includes(customerId));
    /** Every call the providers received (this app's only customer is the story's). */
    const providerCalls = () => fakes.all().reduce((n, f) => n + f.requestCount(), 0);
    const count = async (table: "usage_charges" | "alerts", customerId: string) =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as("n"))
            .where("customer_id", "=", customerId)
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("a regular becomes a VIP as orders add up, stops being one when orders are cancelled, and is alerted once", async () => {
      const email = `lena.park.${engine.name}@gmail.com`;
      fakes.pdl.setBehaviour(email, { kind: "match", person: MANAGER });
      // Every other provider knows nothing of her: her first score is PDL's manager alone.
      for (const name of PROVIDER_NAMES.filter((n) => n !== "pdl")) {
        fakes[name].setBehaviour(email, { kind: "not_found" });
      }
      // The last five orders are also in the WooCommerce store, where they will be cancelled.
      const inStore: WooOrderJson[] = Array.from({ length: CANCELLED }, () =>
        wooOrder(email, new Date(Date.now() - HOUR), {
          first: "Lena",
          last: "Park",
          total: TOTAL,
        }),
      );
      const orderId = (i: number) =>
        i >= 1 + LATER_ORDERS - CANCELLED
          ? String(inStore[i - (1 + LATER_ORDERS - CANCELLED)]?.id)
          : `story-${engine.name}-${i}`;
      const submit = async (i: number) => {
        const res = await app.submit(account.apiKey, {
          email,
          firstName: "Lena",
          lastName: "Park",
          order: { id: orderId(i), total: TOTAL, currency: "USD" },
        });
        expect(res.status).toBe(200);
        return (await res.json()) as { customerId: string; enrichmentStatus: string };
      };

      // 1. The first order: queued, enriched, under the line.
      const first = await submit(0);
      expect(first.enrichmentStatus).toBe("queued");
      const customerId = first.customerId;
      await waitFor(
        "the first enrichment",
        async () => (await enrichment(customerId))?.enrichment_status === "enriched",
        20_000,
      );
      const enriched = await enrichment(customerId);
      expect(enriched?.vip).toBe(0);
      expect(enriched?.score ?? 100).toBeLessThanOrEqual(70);
      const asked = providerCalls();
      expect(asked).toBeGreaterThan(0);
      await waitFor("customer.enriched", () => hooks(customerId).length === 1, 20_000);
      expect(hooks(customerId)[0]?.body.data).toMatchObject({ vip: false });

      // 2. Twenty more modest orders: `existing` each, then promoted by the re-judge.
      for (let i = 1; i <= LATER_ORDERS; i++) {
        expect((await submit(i)).enrichmentStatus).toBe("existing");
      }
      await waitFor("the promotion", async () => (await enrichment(customerId))?.vip === 1, 30_000);
      await waitFor("the chat alert", () => chats(customerId).length === 1, 20_000);
      await waitFor("customer.vip", () => hooks(customerId, "customer.vip").length === 1, 20_000);
      // The last orders' re-judge may come a run later: wait until all 21 are in the score.
      await waitFor(
        "every order in the score",
        async () => (await enrichment(customerId))?.signals.includes("over 21 orders") ?? false,
        20_000,
      );
      const promoted = await enrichment(customerId);
      expect(promoted?.score ?? 0).toBeGreaterThan(70);
      expect(promoted?.vip_change_reason).toMatch(/^now a VIP: \$[\d,]+\.\d\d over \d+ orders$/);
      expect(promoted?.vip_since).toBe(promoted?.vip_changed_at);
      expect(JSON.parse(promoted?.signals ?? "[]")).toContainEqual({
        source: "offline",
        signal: "lifetime_spend",
        value: "$3,019.80 over 21 orders",
        points: 30,
      });
      // The alert says why, in the words the page shows.
      expect(JSON.stringify(chats(customerId)[0]?.body)).toContain(
        promoted?.vip_change_reason ?? "?",
      );
      const vipHook = hooks(customerId, "customer.vip")[0];
      expect(vipHook?.body.data).toMatchObject({
        vip: true,
        historical: false,
        change: { kind: "promoted", reason: promoted?.vip_change_reason },
      });
      expect(await count("usage_charges", customerId)).toBe(1);
      expect(providerCalls()).toBe(asked);

      // 3. Five orders cancelled in the store and synced: demoted, machines told, nobody alerted.
      woo.orders.push(...inStore);
      const connectionId = await connect(app.deps, {
        accountId: account.accountId,
        shop: woo.url,
        credentials: { platform: "woocommerce", key: woo.key, secret: woo.secret },
        backfillDays: 30,
      });
      // The worker syncs the connection too: a run of ours may find it busy ("idle").
      const syncUntil = (what: string, done: () => Promise<boolean>) =>
        waitFor(
          what,
          async () => {
            await runSync(app.deps, connectionId);
            return done();
          },
          20_000,
        );
      const counting = async () =>
        (
          await db()
            .selectFrom("orders")
            .select("counts")
            .where("customer_id", "=", customerId)
            .where(
              "external_order_id",
              "in",
              inStore.map((o) => String(o.id)),
            )
            .execute()
        ).filter((o) => o.counts === 1).length;
      expect(await counting()).toBe(CANCELLED);
      for (const o of inStore) setWooOrderStatus(o, "cancelled");
      await syncUntil("the cancellations synced", async () => (await counting()) === 0);
      await waitFor("the demotion", async () => (await enrichment(customerId))?.vip === 0, 20_000);
      const demoted = await enrichment(customerId);
      expect(demoted?.vip_since).toBeNull();
      expect(demoted?.vip_change_reason).toMatch(
        /^no longer a VIP: \$2,300.80 over 16 orders \(score \d+, threshold 70\)$/,
      );
      await waitFor(
        "customer.not_vip",
        () => hooks(customerId, "customer.not_vip").length === 1,
        20_000,
      );
      expect(hooks(customerId, "customer.not_vip")[0]?.body.data).toMatchObject({
        vip: false,
        change: { kind: "demoted", reason: demoted?.vip_change_reason },
      });
      // Each event is its own delivery job: customer.enriched may arrive after customer.not_vip.
      await waitFor(
        "the demotion's customer.enriched",
        () => hooks(customerId, "customer.enriched").length === 3,
        20_000,
      );
      const enrichedHooks = hooks(customerId, "customer.enriched").map((h) => h.body.data.vip);
      expect(enrichedHooks).toEqual([false, true, false]);

      // 4. The same orders reinstated: a VIP again, machines told, no second alert.
      for (const o of inStore) setWooOrderStatus(o, "processing");
      await syncUntil("the orders reinstated", async () => (await counting()) === CANCELLED);
      await waitFor(
        "the second promotion",
        async () => (await enrichment(customerId))?.vip === 1,
        20_000,
      );
      await waitFor(
        "customer.vip again",
        () => hooks(customerId, "customer.vip").length === 2,
        20_000,
      );
      expect(await count("alerts", customerId)).toBe(1);
      expect(chats(customerId)).toHaveLength(1);
      expect(await count("usage_charges", customerId)).toBe(1);
      expect(providerCalls()).toBe(asked);
    }, 120_000);
  });
}
