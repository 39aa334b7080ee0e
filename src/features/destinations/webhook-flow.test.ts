/**
 * Signed webhooks end to end, on both engines: orders over HTTP (and an imported history) →
 * enrichment by the in-process worker (provider fakes) → deliveries to a receiver on loopback,
 * each verified with the `standardwebhooks` library as a merchant's receiver would; a failing
 * receiver is retried under the same webhook-id; forgetting the person reaches it too.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import {
  type FakeWebhookReceiver,
  type ReceivedWebhook,
  startWebhookReceiver,
} from "../../../test/fakes/webhook-receiver.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { drainQueue } from "../../../test/support/test-deps.js";
import { loadConfig } from "../../config.js";
import { updateAccount } from "../accounts/update-account.js";
import { createAlertDelivery } from "../alerts/alert-deps.js";
import { systemActor } from "../audit/audit-actor.js";
import { importOrders } from "../order-import/import-orders.js";
import { eraseCustomer } from "../privacy/erase-customer.js";
import { exportCustomer } from "../privacy/export-customer.js";
import { addDestination } from "./add-destination.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-webhooks-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const actor = systemActor("test");

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`signed webhook destinations on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let chat: FakeChatServer;
    let receiver: FakeWebhookReceiver;
    let app: TestApp;
    let account: TestAccount;
    let verifier: Webhook;
    let n = 0;

    beforeAll(async () => {
      [fakes, chat, receiver] = await Promise.all([
        startFakeProviders(),
        startChatServer(),
        startWebhookReceiver(),
      ]);
      const env = {
        ...fakes.env,
        ...STORE_SYNC_ENV,
        GRAVATAR_RATE_LIMIT_PER_MIN: "60000",
        WEBHOOKS_ALLOW_PRIVATE: "true",
      };
      const alerts = createAlertDelivery(loadConfig(env), { pacingIntervalMs: 0 });
      app = await startTestApp(engine, { worker: true, env, alerts });
      account = await app.createAccount({ name: "Acme Store" });
      await updateAccount(app.deps.db.kysely, account.accountId, {
        channels: { slack_webhook_url: chat.webhookUrl },
        // A VIP scores above the threshold of 70, so from 71: the Gold tier.
        tiers: [{ name: "Gold", floor: 71 }],
      });
      const added = await addDestination(app.deps, {
        accountId: account.accountId,
        kind: "webhook",
        fields: { url: receiver.url },
        actor,
      });
      expect(added.revealed.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      verifier = new Webhook(added.revealed.secret ?? "");
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), chat?.close(), receiver?.close()]);
    });

    const submit = async (email: string, orderId: string) => {
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Grace",
        lastName: "Hopper",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: orderId, total: "1250.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { customerId: string }).customerId;
    };
    const about = (customerId: string) =>
      receiver.requests.filter((r) => r.raw.includes(customerId));
    const types = (hooks: ReceivedWebhook[]) => hooks.map((h) => h.body.type).sort();
    /** What a receiver does first: verify, with the standard library, or refuse the request. */
    const verified = (hook: ReceivedWebhook) => verifier.verify(hook.raw, hook.headers);
    const deliveries = () => app.deps.db.kysely.selectFrom("destination_deliveries").selectAll();

    it("a live VIP sends customer.enriched and customer.vip, signed, once each", async () => {
      const customerId = await submit(`grace-${engine.name}-${++n}@navy-systems.com`, `v-${n}`);
      await waitFor("two webhooks", () => about(customerId).length === 2, 20_000);
      await drainQueue(app.deps);
      const hooks = about(customerId);
      expect(types(hooks)).toEqual(["customer.enriched", "customer.vip"]);
      for (const hook of hooks) {
        expect(verified(hook)).toEqual(hook.body);
        expect(hook.body.data).toMatchObject({
          customer: { id: customerId, firstName: "Grace", lastName: "Hopper" },
          vip: true,
          tier: "Gold",
          historical: false,
        });
        expect(hook.body.data.score).toBeGreaterThan(hook.body.data.threshold as number);
        expect((hook.body.data.reasons as unknown[]).length).toBeGreaterThan(0);
        // Money in the one format, as the alert and the dashboard write it.
        expect(hook.body.data.reasons).toContainEqual(
          expect.objectContaining({ label: "Order value", value: "$1,250.00" }),
        );
      }
      // A signature made with another secret, or over other bytes, is refused.
      const [first] = hooks as [ReceivedWebhook];
      expect(() => verifier.verify(first.raw.replace("Grace", "Grac3"), first.headers)).toThrow();
      const rows = await deliveries().where("customer_id", "=", customerId).execute();
      expect(rows.map((r) => [r.event, r.status, r.attempts]).sort()).toEqual([
        ["customer.enriched", "delivered", 1],
        ["customer.vip", "delivered", 1],
      ]);
      expect(hooks.map((h) => h.headers["webhook-id"]).sort()).toEqual(
        rows.map((r) => r.id).sort(),
      );
      // A re-enrichment (its enrichment failed, the next order requeued it) delivers nothing new.
      await app.deps.db.kysely
        .updateTable("customers")
        .set({ enrichment_status: "failed" })
        .where("id", "=", customerId)
        .execute();
      await submit(`grace-${engine.name}-${n}@navy-systems.com`, `v-${n}-again`);
      await waitFor("re-enriched", async () => {
        const c = await app.deps.db.kysely
          .selectFrom("customers")
          .select("enrichment_status")
          .where("id", "=", customerId)
          .executeTakeFirst();
        return c?.enrichment_status === "enriched";
      });
      await drainQueue(app.deps);
      expect(about(customerId)).toHaveLength(2);
      // The chat alert went as well: destinations do not replace the people's alert.
      expect(chat.requests.filter((r) => JSON.stringify(r.body).includes(customerId))).toHaveLength(
        1,
      );
    });

    it("a customer who is not a VIP sends customer.enriched only", async () => {
      const email = `plain-${engine.name}-${++n}@gmail.com`;
      for (const fake of fakes.all()) fake.setBehaviour(email, { kind: "not_found" });
      const customerId = await submit(email, `p-${n}`);
      await waitFor("one webhook", () => about(customerId).length === 1, 20_000);
      await drainQueue(app.deps);
      const hooks = about(customerId);
      expect(types(hooks)).toEqual(["customer.enriched"]);
      expect(verified(hooks[0] as ReceivedWebhook)).toMatchObject({ data: { vip: false } });
    });

    it("a failing receiver is retried under the same webhook-id, every attempt logged", async () => {
      // The schedule's first step is 5 s (Standard Webhooks' suggestion); the next is minutes.
      receiver.reply({ status: 503, body: "deploying", headers: { "retry-after": "1" } });
      const email = `retry-${engine.name}-${++n}@gmail.com`;
      for (const fake of fakes.all()) fake.setBehaviour(email, { kind: "not_found" });
      const customerId = await submit(email, `r-${n}`);
      await waitFor(
        "delivered",
        async () => {
          const [row] = await deliveries().where("customer_id", "=", customerId).execute();
          return row?.status === "delivered";
        },
        30_000,
      );
      const hooks = about(customerId);
      expect(hooks).toHaveLength(2);
      expect(new Set(hooks.map((h) => h.headers["webhook-id"])).size).toBe(1);
      for (const hook of hooks) verified(hook);
      const [row] = await deliveries().where("customer_id", "=", customerId).execute();
      const attempts = await app.deps.db.kysely
        .selectFrom("destination_attempts")
        .select(["outcome", "status_code"])
        .where("delivery_id", "=", row?.id ?? "")
        .orderBy("attempted_at")
        .execute();
      expect(attempts.map((a) => [a.outcome, a.status_code])).toEqual([
        ["retry", 503],
        ["delivered", 204],
      ]);
    });

    it("an imported history reaches the webhook marked historical, with no chat alert", async () => {
      const name = `history-${engine.name}-${++n}`;
      const file = path.join(dir, `${name}.csv`);
      fs.writeFileSync(
        file,
        [
          "email,first_name,last_name,phone,city,state,zipcode,country,order_id,order_number,total,currency,ordered_at",
          `${name}@navy-systems.com,Grace,Hopper,,Atherton,CA,94027,US,${name},#1,1250.00,USD,2024-02-01`,
        ].join("\n"),
      );
      const chatBefore = chat.requests.length;
      await importOrders(app.deps, {
        accountId: account.accountId,
        file,
        apply: true,
        alerts: false,
      });
      const hooksFor = () => receiver.requests.filter((r) => r.raw.includes(`${name}@`));
      await waitFor("two webhooks", () => hooksFor().length === 2, 20_000);
      await drainQueue(app.deps);
      expect(types(hooksFor())).toEqual(["customer.enriched", "customer.vip"]);
      for (const hook of hooksFor()) {
        expect(verified(hook)).toMatchObject({ data: { vip: true, historical: true } });
      }
      expect(chat.requests.length).toBe(chatBefore);
    });

    it("forgetting a person sends customer.forgotten and keeps nothing of them", async () => {
      const email = `forget-${engine.name}-${++n}@navy-systems.com`;
      const customerId = await submit(email, `f-${n}`);
      await waitFor("two webhooks", () => about(customerId).length === 2, 20_000);
      await drainQueue(app.deps);
      // What was handed on is part of "show me what you hold about me".
      const exported = await exportCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { customerId },
        actor,
      });
      expect(
        ((exported?.destinationDeliveries ?? []) as { event: string }[]).map((d) => d.event).sort(),
      ).toEqual(["customer.enriched", "customer.vip"]);
      const erased = await eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { customerId },
        actor,
      });
      expect(erased?.erased).toMatchObject({ destinationDeliveries: 2, destinationAttempts: 2 });
      await waitFor("customer.forgotten", () => about(customerId).length === 3, 20_000);
      await drainQueue(app.deps);
      const forgotten = about(customerId).find((h) => h.body.type === "customer.forgotten");
      expect(verified(forgotten as ReceivedWebhook)).toMatchObject({
        data: { customer: { id: customerId, email }, reason: "erasure_request" },
      });
      // Only the forgotten delivery stays, unlinked, and its body (the e-mail) is cleared.
      const left = await deliveries().where("event_key", "like", `%:${customerId}`).execute();
      expect(left.map((r) => [r.event, r.customer_id, r.status, r.body])).toEqual([
        ["customer.forgotten", null, "delivered", null],
      ]);
    });
  });
}
