/**
 * Stores in real time, end to end, on both engines: `velvet serve` (in-process, worker on) at a
 * loopback PUBLIC_BASE_URL, a Shopify shop and a WooCommerce site connected through the CLI,
 * polling far slower than the test (600 s). An order placed in each store reaches the team chat
 * as a VIP alert within 5 s, by the store's webhook; a delivery with a wrong signature is 401
 * and leaves no trace; the same delivery twice gives one order and one charge; an order whose
 * delivery was lost is taken by the reconciliation pass, which marks the webhooks failing until
 * the next delivery; a cancellation delivered later makes the order stop counting; disconnecting
 * removes the subscriptions from both stores.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { runSync, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { loadConfig } from "../../config.js";
import { updateAccount } from "../accounts/update-account.js";
import { createAlertDelivery } from "../alerts/alert-deps.js";
import { customerOrderCount } from "../enrichment/offline/order-history.js";
import { listConnections } from "../store-sync/list-connections.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`stores in real time (${engine.name})`, () => {
    let fakes: FakeProviders;
    let chat: FakeChatServer;
    let shopify: FakeShopify;
    let woo: FakeWooCommerce;
    let app: TestApp;
    let account: TestAccount;
    let cliEnv: Record<string, string>;
    const connections: Record<"shopify" | "woocommerce", string> = {
      shopify: "",
      woocommerce: "",
    };

    beforeAll(async () => {
      [fakes, chat, shopify, woo] = await Promise.all([
        startFakeProviders(),
        startChatServer(),
        // Shopify's 8 retries over 4 hours, in about a second and a half.
        startFakeShopify({ retryScale: 0.0001 }),
        startFakeWooCommerce(),
      ]);
      const env = {
        ...fakes.env,
        ...STORE_SYNC_ENV,
        GRAVATAR_RATE_LIMIT_PER_MIN: "6000",
        STORE_SYNC_INTERVAL_SECONDS: "600",
        STORE_RECONCILE_INTERVAL_SECONDS: "3600",
      };
      const alerts = createAlertDelivery(loadConfig(env), { pacingIntervalMs: 0 });
      app = await startTestApp(engine, { worker: true, env, alerts, publicUrl: true });
      account = await app.createAccount({ name: "Acme Store" });
      await updateAccount(app.deps.db.kysely, account.accountId, {
        channels: { slack_webhook_url: chat.webhookUrl },
      });
      // The CLI is another Velvet process: the same settings as the server's.
      cliEnv = { ...env, DATABASE_URL: app.database.url, PUBLIC_BASE_URL: app.url };
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), chat?.close(), shopify?.close(), woo?.close()]);
    });

    const customer = (email: string) =>
      app.deps.db.kysely
        .selectFrom("customers")
        .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
        .select(["customers.id", "enrichments.vip"])
        .where("customers.store_id", "=", account.storeId)
        .where("customers.email_normalized", "=", email)
        .executeTakeFirst();
    const alerted = async (email: string) => {
      const row = await customer(email);
      return row?.vip === 1 && chat.requests.some((r) => JSON.stringify(r.body).includes(row.id));
    };
    const order = (externalId: string) =>
      app.deps.db.kysely
        .selectFrom("orders")
        .select(["id", "customer_id", "status", "counts"])
        .where("store_id", "=", account.storeId)
        .where("external_order_id", "=", externalId)
        .execute();
    const events = () =>
      app.deps.db.kysely.selectFrom("store_events").select(["id", "outcome"]).execute();

    it("connects both stores through the CLI, subscribed to their order webhooks", async () => {
      const shop = onlyJson(
        await runVelvet(
          [
            "store",
            "connect",
            "shopify",
            "--account",
            account.accountId,
            "--shop",
            shopify.shop,
            "--token",
            shopify.token,
            "--webhook-secret",
            shopify.apiSecretKey,
            "--backfill-days",
            "0",
            "--json",
          ],
          cliEnv,
        ),
      );
      expect(shop.webhooks).toEqual({ webhooks: "active", note: null });
      connections.shopify = String(shop.connectionId);
      expect(shopify.subscriptions.map((s) => s.topic).sort()).toEqual([
        "ORDERS_CANCELLED",
        "ORDERS_CREATE",
        "ORDERS_UPDATED",
      ]);
      const site = onlyJson(
        await runVelvet(
          [
            "store",
            "connect",
            "woocommerce",
            "--account",
            account.accountId,
            "--url",
            woo.url,
            "--key",
            woo.key,
            "--secret",
            woo.secret,
            "--backfill-days",
            "0",
            "--json",
          ],
          cliEnv,
        ),
      );
      expect(site.webhooks).toEqual({ webhooks: "active", note: null });
      connections.woocommerce = String(site.connectionId);
      expect(woo.webhooks.map((w) => w.topic).sort()).toEqual(["order.created", "order.updated"]);
      expect(woo.webhooks.every((w) => w.delivery_url.startsWith(app.url))).toBe(true);

      const listed = await runVelvet(["store", "list"], cliEnv);
      expect(listed.stdout).toMatch(
        /webhooks delivering \(no delivery yet\); polling reconciles every 60 min/,
      );
    });

    it("an order placed in either store is a VIP alert in the team chat within 5 s", async () => {
      const ada = `ada-${engine.name}@navy-systems.com`;
      const placed = Date.now();
      const node = shopify.placeOrder(
        shopifyOrder(ada, new Date(), { first: "Ada", last: "Lovelace" }),
      );
      await waitFor("Shopify's order alerted", () => alerted(ada), 5000);
      expect(Date.now() - placed).toBeLessThan(5000);
      expect(await order(node.legacyResourceId)).toHaveLength(1);

      const grace = `grace-${engine.name}@navy-systems.com`;
      const wooPlaced = Date.now();
      woo.placeOrder(wooOrder(grace, new Date()));
      await waitFor("WooCommerce's order alerted", () => alerted(grace), 5000);
      expect(Date.now() - wooPlaced).toBeLessThan(5000);
      // Both came by webhook: polling is minutes away.
      expect((await events()).filter((e) => e.outcome === "taken")).toHaveLength(2);
      const views = await listConnections(app.deps.db.kysely, account.accountId);
      expect(views.map((v) => v.webhooks)).toEqual(["active", "active"]);
      expect(views.every((v) => v.lastWebhookAt !== null)).toBe(true);
    });

    it("a wrong signature is 401 and leaves no trace; the same delivery twice is one order, one charge", async () => {
      await woo.deliveriesSettled();
      const delivery = woo.deliveries.findLast((d) => d.kind === "delivery");
      if (delivery === undefined) throw new Error("no WooCommerce delivery recorded");
      const before = await events();
      const forged = await fetch(delivery.url, {
        method: "POST",
        headers: {
          ...delivery.headers,
          "x-wc-webhook-signature": "c2lnbmVkIGJ5IHNvbWVvbmUgZWxzZQ==",
        },
        body: delivery.body.replace("navy-systems.com", "evil.example"),
      });
      expect(forged.status).toBe(401);
      expect(await events()).toEqual(before);

      const again = await fetch(delivery.url, {
        method: "POST",
        headers: delivery.headers,
        body: delivery.body,
      });
      expect(await again.json()).toEqual({ received: "duplicate" });
      const id = String((JSON.parse(delivery.body) as { id: number }).id);
      const [stored, ...more] = await order(id);
      expect(more).toHaveLength(0);
      const charges = await app.deps.db.kysely
        .selectFrom("usage_charges")
        .select("id")
        .where("customer_id", "=", stored?.customer_id as string)
        .execute();
      expect(charges).toHaveLength(1);
    });

    it("an order whose delivery was lost is taken by reconciliation; the webhooks then say failing until one arrives", async () => {
      const id = connections.shopify;
      // The order is older than the grace a delivery gets, and live (after the connection).
      await app.deps.db.kysely
        .updateTable("store_connections")
        .set((eb) => ({ live_after: eb("live_after", "-", 10 * 60_000) }))
        .where("id", "=", id)
        .execute();
      shopify.dropNextDeliveries(1);
      const lin = `lin-${engine.name}@navy-systems.com`;
      // Placed 3 minutes ago (its delivery lost), updated since: the next pass reads it.
      const lost = shopify.placeOrder(
        shopifyOrder(lin, new Date(Date.now() - 3 * 60_000), {
          updatedAt: new Date(Math.floor(Date.now() / 1000) * 1000).toISOString(),
        }),
      );
      await shopify.deliveriesSettled();
      expect(await order(lost.legacyResourceId)).toHaveLength(0);

      const run = await runSync(app.deps, id); // the reconciliation pass, as the job runs it
      expect(run).toMatchObject({ kind: "synced", newOrders: 1 });
      expect(await order(lost.legacyResourceId)).toHaveLength(1);
      let [view] = (await listConnections(app.deps.db.kysely, account.accountId)).filter(
        (v) => v.connectionId === id,
      );
      expect(view?.webhooks).toBe("failing");
      expect(view?.webhookNote).toMatch(
        /a reconciliation pass took an order no webhook had delivered/,
      );
      const listed = await runVelvet(["store", "list"], cliEnv);
      expect(listed.stdout).toMatch(/webhooks failing: .* \(polling every 10 min\)/);

      shopify.placeOrder(shopifyOrder(`mo-${engine.name}@navy-systems.com`, new Date()));
      await waitFor("a delivery making the webhooks healthy again", async () => {
        [view] = (await listConnections(app.deps.db.kysely, account.accountId)).filter(
          (v) => v.connectionId === id,
        );
        return view?.webhooks === "active";
      });
    });

    it("a cancellation delivered later makes the order stop counting, on both platforms", async () => {
      const ada = await customer(`ada-${engine.name}@navy-systems.com`);
      const node = shopify.orders.find((o) => o.email === `ada-${engine.name}@navy-systems.com`);
      shopify.cancelOrder(node?.legacyResourceId as string);
      await waitFor("Shopify's cancellation taken", async () => {
        const [row] = await order(node?.legacyResourceId as string);
        return row?.status === "cancelled";
      });
      const [cancelled] = await order(node?.legacyResourceId as string);
      expect(Number(cancelled?.counts)).toBe(0);
      expect(await customerOrderCount(app.deps.db.kysely, ada?.id as string)).toBe(0);

      const grace = await customer(`grace-${engine.name}@navy-systems.com`);
      const wooId = woo.orders.find(
        (o) => o.billing.email === `grace-${engine.name}@navy-systems.com`,
      )?.id;
      woo.updateOrder(wooId as number, { status: "refunded" });
      await waitFor("WooCommerce's refund taken", async () => {
        const [row] = await order(String(wooId));
        return row?.status === "refunded";
      });
      expect(await customerOrderCount(app.deps.db.kysely, grace?.id as string)).toBe(0);
    });

    it("disconnecting removes Velvet's webhooks from both stores", async () => {
      for (const id of Object.values(connections)) {
        const run = await runVelvet(["store", "disconnect", id, "--yes"], cliEnv);
        expect(run.code, run.stderr).toBe(0);
        expect(run.stdout).toMatch(/disconnected/);
      }
      expect(shopify.subscriptions).toHaveLength(0);
      expect(woo.webhooks).toHaveLength(0);
    });
  });
}
