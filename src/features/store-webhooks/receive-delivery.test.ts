/**
 * The inbound webhook endpoints over real HTTP on loopback, on both engines, with the worker
 * running: a signed Shopify delivery becomes an order (through the job), the same delivery
 * again changes nothing (one order, one charge), a wrong or missing signature is 401 and leaves
 * no trace, the signature is checked over the bytes as sent (not re-serialised JSON), an
 * unknown connection is 404, WooCommerce's unsigned ping is answered without a write, a topic
 * Velvet did not subscribe to and a delivery for a paused connection are ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeShopify, startFakeShopify } from "../../../test/fakes/shopify-admin.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { pgbouncerEngine } from "../../../test/support/pgbouncer.js";
import { connect, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { cliActor } from "../audit/audit-actor.js";
import { listConnections } from "../store-sync/list-connections.js";
import { changeConnection } from "../store-sync/manage-connection.js";
import { EVENT_KEEP_MS, foldOldEvents } from "./fold-events.js";
import { signatureOf } from "./verify-signature.js";

const WEBHOOK_SECRET = "shpss_custom_app_api_secret_key_0001";

/** A Shopify orders/create payload (REST shape), as https://shopify.dev/docs/api/webhooks?reference=toml#list-of-topics-orders/create shows it. */
function restOrder(id: number, email: string) {
  const now = new Date().toISOString();
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id}`,
    email,
    phone: null,
    test: false,
    created_at: now,
    updated_at: now,
    cancelled_at: null,
    financial_status: "paid",
    total_price: "1250.00",
    currency: "USD",
    customer: {
      id: 7001,
      admin_graphql_api_id: "gid://shopify/Customer/7001",
      first_name: "Grace",
      last_name: "Hopper",
      email,
      phone: null,
    },
    billing_address: {
      first_name: "Grace",
      last_name: "Hopper",
      phone: null,
      city: "Atherton",
      province_code: "CA",
      zip: "94027",
      country_code: "US",
    },
    shipping_address: null,
  };
}

// Also through PgBouncer in transaction mode (test/pgbouncer.test.ts says why these files).
for (const engine of [...ENGINES, pgbouncerEngine]) {
  describe.skipIf(!engine.available)(`store webhooks: receiving (${engine.name})`, () => {
    let app: TestApp;
    let shopify: FakeShopify;
    let account: TestAccount;
    let connectionId: string;

    beforeAll(async () => {
      shopify = await startFakeShopify();
      app = await startTestApp(engine, { worker: true, env: { ...STORE_SYNC_ENV } });
      account = await app.createAccount({ name: "Acme" });
      connectionId = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token, webhookSecret: WEBHOOK_SECRET },
        backfillDays: 0,
      });
    });
    afterAll(async () => {
      await app?.close();
      await shopify?.close();
    });

    const post = (
      platform: string,
      id: string,
      body: string,
      headers: Record<string, string>,
      contentType = "application/json",
    ) =>
      fetch(`${app.url}/api/v1/webhooks/${platform}/${id}`, {
        method: "POST",
        headers: { "content-type": contentType, ...headers },
        body,
      });
    const shopifyHeaders = (body: string, webhookId: string, secret = WEBHOOK_SECRET) => ({
      "x-shopify-topic": "orders/create",
      "x-shopify-hmac-sha256": signatureOf(body, secret),
      "x-shopify-shop-domain": "acme.myshopify.com",
      "x-shopify-webhook-id": webhookId,
      "x-shopify-event-id": `event-${webhookId}`,
    });
    const events = () =>
      app.deps.db.kysely
        .selectFrom("store_events")
        .selectAll()
        .where("connection_id", "=", connectionId)
        .execute();
    const orders = (externalId: string) =>
      app.deps.db.kysely
        .selectFrom("orders")
        .select(["id", "customer_id"])
        .where("store_id", "=", account.storeId)
        .where("external_order_id", "=", externalId)
        .execute();
    const charges = (customerId: string) =>
      app.deps.db.kysely
        .selectFrom("usage_charges")
        .select("id")
        .where("customer_id", "=", customerId)
        .execute();

    it("takes a signed delivery once, however often it comes", async () => {
      // Pretty-printed: the signature is over these bytes, not over JSON.stringify's.
      const body = JSON.stringify(restOrder(5001, `ada-${engine.name}@navy-systems.com`), null, 2);
      const first = await post("shopify", connectionId, body, shopifyHeaders(body, "wh-5001"));
      expect(first.status).toBe(200);
      expect(await first.json()).toEqual({ received: "new" });
      const again = await post("shopify", connectionId, body, shopifyHeaders(body, "wh-5001"));
      expect(await again.json()).toEqual({ received: "duplicate" });
      await waitFor("the delivery's order", async () => (await orders("5001")).length === 1);
      await waitFor("the event processed", async () =>
        (await events()).every((e) => e.processed_at !== null),
      );
      const stored = await events();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.body).toBeNull(); // no customer data kept once taken
      expect(stored[0]?.outcome).toBe("taken");
      const [order] = await orders("5001");
      expect(await charges(order?.customer_id as string)).toHaveLength(1);

      // The same order in another delivery (Shopify's orders/updated): still one order, one charge.
      const updated = shopifyHeaders(body, "wh-5001-updated");
      updated["x-shopify-topic"] = "orders/updated";
      expect((await post("shopify", connectionId, body, updated)).status).toBe(200);
      await waitFor("the second event processed", async () =>
        (await events()).every((e) => e.processed_at !== null),
      );
      expect(await orders("5001")).toHaveLength(1);
      expect(await charges(order?.customer_id as string)).toHaveLength(1);
      const count = async () =>
        (await listConnections(app.deps.db.kysely, account.accountId))[0]?.ordersSynced;
      expect(await count()).toBe(1);

      // Two days later the deliveries go, their order folded into the connection's count.
      const later = app.deps.clock.now() + EVENT_KEEP_MS + 1000;
      expect(
        await foldOldEvents({ db: app.deps.db, clock: { now: () => later } }, connectionId),
      ).toBe(2);
      expect(await events()).toHaveLength(0);
      expect(await count()).toBe(1);
    });

    it("refuses a wrong or missing signature with 401 and writes nothing", async () => {
      const body = JSON.stringify(restOrder(5002, `eve-${engine.name}@navy-systems.com`));
      const before = (await events()).length;
      const wrong = await post(
        "shopify",
        connectionId,
        body,
        shopifyHeaders(body, "wh-5002", "not-the-secret"),
      );
      expect(wrong.status).toBe(401);
      const answer = (await wrong.json()) as { error: string; message: string };
      expect(answer.error).toBe("Unauthorized");
      expect(answer.message).toMatch(/signature does not match/);
      const headers: Record<string, string> = shopifyHeaders(body, "wh-5002b");
      delete headers["x-shopify-hmac-sha256"];
      expect((await post("shopify", connectionId, body, headers)).status).toBe(401);
      // A body changed after signing: one byte is enough.
      const signed = shopifyHeaders(body, "wh-5002c");
      expect((await post("shopify", connectionId, `${body} `, signed)).status).toBe(401);
      expect(await events()).toHaveLength(before);
      expect(await orders("5002")).toHaveLength(0);
    });

    it("answers 404 for a connection it does not have, and for the other platform's address", async () => {
      const body = JSON.stringify(restOrder(5003, "x@navy-systems.com"));
      const unknown = await post(
        "shopify",
        "0190c0de-0000-7000-8000-000000000000",
        body,
        shopifyHeaders(body, "wh-5003"),
      );
      expect(unknown.status).toBe(404);
      expect(((await unknown.json()) as { error: string }).error).toBe("Not Found");
      const wrongPlatform = await post(
        "woocommerce",
        connectionId,
        body,
        shopifyHeaders(body, "wh-5003"),
      );
      expect(wrongPlatform.status).toBe(404);
    });

    it("ignores topics it did not subscribe to, and deliveries while the connection is paused", async () => {
      const before = (await events()).length;
      const body = JSON.stringify({ id: 1, title: "A product" });
      const product = shopifyHeaders(body, "wh-product");
      product["x-shopify-topic"] = "products/update";
      const res = await post("shopify", connectionId, body, product);
      expect(await res.json()).toEqual({ received: "ignored" });

      await changeConnection(app.deps, "pause", connectionId, null, cliActor("test"));
      const order = JSON.stringify(restOrder(5004, `pia-${engine.name}@navy-systems.com`));
      const paused = await post("shopify", connectionId, order, shopifyHeaders(order, "wh-5004"));
      expect(await paused.json()).toEqual({ received: "ignored" });
      await changeConnection(app.deps, "resume", connectionId, null, cliActor("test"));
      expect(await events()).toHaveLength(before);
    });
  });
}
