/**
 * A store's webhooks through a database outage: Velvet on a PostgreSQL cluster of the test's own,
 * a Shopify shop connected with its webhooks, the cluster stopped (`immediate`, a crash) while
 * the shop delivers an order. Velvet answers 503 with Retry-After (nothing stored, never a 500),
 * Shopify retries on its schedule (time-compressed), and once the cluster is back the retry is
 * taken: the order stored once, its customer charged once. Nothing is lost, nothing doubled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import { postgresEngine } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import {
  type PrivatePostgres,
  privatePostgresAvailable,
  startPrivatePostgres,
} from "../../../test/support/private-postgres.js";
import { STORE_SYNC_ENV, testPlatformHttp } from "../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { cliActor } from "../audit/audit-actor.js";
import { connectLiveStore } from "./live-connection.js";

describe.skipIf(!privatePostgresAvailable)("store webhooks through a database outage", () => {
  let cluster: PrivatePostgres;
  let shopify: FakeShopify;
  let app: TestApp;

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    // Shopify's 8 retries over 4 hours, in about 14 seconds.
    shopify = await startFakeShopify({ retryScale: 0.001 });
    app = await startTestApp(postgresEngine, {
      database: {
        target: { kind: "postgres", url: cluster.url, poolMax: 5 },
        url: cluster.url,
        drop: async () => {},
      },
      worker: true,
      env: { ...STORE_SYNC_ENV, STORE_SYNC_INTERVAL_SECONDS: "600" },
      publicUrl: true,
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await shopify?.close();
    await cluster?.destroy();
  });

  it("answers 503 while the database is away, and takes Shopify's retry once it is back", async () => {
    const account = await app.createAccount({ name: "Outage Store" });
    const http = testPlatformHttp();
    const connected = await connectLiveStore(app.deps, http, {
      accountId: account.accountId,
      shop: shopify.shop,
      credentials: {
        platform: "shopify",
        token: shopify.token,
        webhookSecret: shopify.apiSecretKey,
      },
      backfillDays: 0,
      actor: cliActor("test"),
    }).finally(() => http.close());
    expect(connected.webhooks.webhooks).toBe("active");

    await cluster.stop("immediate");
    const node = shopify.placeOrder(shopifyOrder("ada@navy-systems.com", new Date()));
    await waitFor(
      "a delivery refused while the database is away",
      () => shopify.deliveries.some((d) => d.status === 503),
      10_000,
    );
    const refused = shopify.deliveries.filter((d) => d.status !== null && d.status !== 200);
    expect(refused.every((d) => d.status === 503)).toBe(true);

    await cluster.start();
    await waitFor(
      "the retried delivery taken",
      async () => {
        try {
          const rows = await app.deps.db.kysely
            .selectFrom("orders")
            .select("customer_id")
            .where("external_order_id", "=", node.legacyResourceId)
            .execute();
          return rows.length === 1;
        } catch {
          return false; // the pool is still reconnecting
        }
      },
      30_000,
    );
    await shopify.deliveriesSettled();
    const delivered = shopify.deliveries.filter((d) => d.outcome === "delivered");
    expect(delivered).toHaveLength(1);
    const [order] = await app.deps.db.kysely
      .selectFrom("orders")
      .select("customer_id")
      .where("external_order_id", "=", node.legacyResourceId)
      .execute();
    const charges = await app.deps.db.kysely
      .selectFrom("usage_charges")
      .select("id")
      .where("customer_id", "=", order?.customer_id as string)
      .execute();
    expect(charges).toHaveLength(1);
  }, 90_000);
});
