/**
 * Keeping a connection's webhooks (ensure-webhooks.ts), on both engines, against the fakes: each
 * reason for staying on polling is said in words (no PUBLIC_BASE_URL, an address that is not
 * https, a Shopify token app without its API secret key, a Read-only WooCommerce key, a site
 * that cannot reach Velvet's address); subscriptions deleted in the store's admin are noticed,
 * made again, and the connection says failing until a delivery arrives; a reconnection keeps
 * WooCommerce's signing secret.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeShopify } from "../../../test/fakes/shopify-admin.js";
import { startFakeWooCommerce } from "../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../test/support/databases.js";
import { connect, STORE_SYNC_ENV, testPlatformHttp } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { openCredentials } from "../store-sync/credentials.js";
import { ensureWebhooks } from "./ensure-webhooks.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`keeping a store's webhooks (${engine.name})`, () => {
    let app: TestApp;
    let account: TestAccount;

    beforeAll(async () => {
      app = await startTestApp(engine, { env: { ...STORE_SYNC_ENV }, publicUrl: true });
      account = await app.createAccount({ name: "Acme" });
    });
    afterAll(async () => {
      await app?.close();
    });

    const ensure = async (connectionId: string) => {
      const http = testPlatformHttp();
      try {
        return await ensureWebhooks(app.deps, http, connectionId, AbortSignal.timeout(10_000));
      } finally {
        await http.close();
      }
    };
    const withConfig = async <T>(change: Record<string, unknown>, run: () => Promise<T>) => {
      const saved = { ...app.deps.config };
      Object.assign(app.deps.config, change);
      try {
        return await run();
      } finally {
        Object.assign(app.deps.config, saved);
      }
    };

    it("says why a store stays on polling: no address, no https, no secret to verify with", async () => {
      const shopify = await startFakeShopify();
      try {
        const id = await connect(app.deps, {
          accountId: account.accountId,
          shop: shopify.shop,
          credentials: { platform: "shopify", token: shopify.token },
          backfillDays: 0,
        });
        const unset = await withConfig({ publicBaseUrlSet: false }, () => ensure(id));
        expect(unset).toMatchObject({ webhooks: "off" });
        expect(unset?.note).toMatch(/PUBLIC_BASE_URL is not set/);
        const plain = await withConfig({ publicBaseUrl: "http://velvet.example.com" }, () =>
          ensure(id),
        );
        expect(plain?.note).toMatch(/is not an https address/);
        const noSecret = await ensure(id);
        expect(noSecret?.webhooks).toBe("off");
        expect(noSecret?.note).toMatch(/--webhook-secret/);
        expect(shopify.subscriptions).toHaveLength(0);
      } finally {
        await shopify.close();
      }
    });

    it("a Read-only WooCommerce key, and a site that cannot reach Velvet, stay on polling, said", async () => {
      const readOnly = await startFakeWooCommerce({ keyPermissions: "read" });
      const woo = await startFakeWooCommerce();
      try {
        const a = await connect(app.deps, {
          accountId: account.accountId,
          shop: readOnly.url,
          credentials: { platform: "woocommerce", key: readOnly.key, secret: readOnly.secret },
          backfillDays: 0,
        });
        const refused = await ensure(a);
        expect(refused?.webhooks).toBe("off");
        expect(refused?.note).toMatch(/Read\/Write/);

        const b = await connect(app.deps, {
          accountId: account.accountId,
          shop: woo.url,
          credentials: { platform: "woocommerce", key: woo.key, secret: woo.secret },
          backfillDays: 0,
        });
        // Nothing listens there: WooCommerce's ping fails (it creates the webhook anyway).
        const unreachable = await withConfig({ publicBaseUrl: "http://127.0.0.1:9" }, () =>
          ensure(b),
        );
        expect(unreachable?.webhooks).toBe("off");
        expect(unreachable?.note).toMatch(/PUBLIC_BASE_URL/);
        expect(woo.webhooks).toHaveLength(0); // the ones made are taken back

        const reached = await ensure(b);
        expect(reached).toEqual({ webhooks: "active", note: null });
        expect(woo.webhooks).toHaveLength(2);
      } finally {
        await Promise.all([readOnly.close(), woo.close()]);
      }
    });

    it("notices subscriptions deleted in the store's admin, makes them again, and says failing until a delivery", async () => {
      const shopify = await startFakeShopify();
      try {
        const id = await connect(app.deps, {
          accountId: account.accountId,
          shop: shopify.shop,
          credentials: {
            platform: "shopify",
            clientId: shopify.clientId,
            clientSecret: shopify.clientSecret,
          },
          backfillDays: 0,
        });
        expect(await ensure(id)).toEqual({ webhooks: "active", note: null });
        expect(shopify.subscriptions).toHaveLength(3);
        // Nothing missing: nothing made again.
        const first = shopify.subscriptions.map((s) => s.id);
        await ensure(id);
        expect(shopify.subscriptions.map((s) => s.id)).toEqual(first);

        shopify.deleteSubscriptionsInAdmin();
        const lost = await ensure(id);
        expect(lost?.webhooks).toBe("failing");
        expect(lost?.note).toMatch(
          /no longer delivered ORDERS_CREATE, ORDERS_UPDATED, ORDERS_CANCELLED/,
        );
        expect(shopify.subscriptions).toHaveLength(3);
        // Still failing at the next look, until a delivery proves them.
        expect((await ensure(id))?.webhooks).toBe("failing");
      } finally {
        await shopify.close();
      }
    });

    it("a reconnection keeps WooCommerce's signing secret, so the store's webhooks still verify", async () => {
      const woo = await startFakeWooCommerce();
      try {
        const input = {
          accountId: account.accountId,
          shop: woo.url,
          credentials: { platform: "woocommerce" as const, key: woo.key, secret: woo.secret },
          backfillDays: 0,
        };
        const id = await connect(app.deps, input);
        await ensure(id);
        const secretOf = async () => {
          const row = await app.deps.db.kysely
            .selectFrom("store_connections")
            .select("credentials")
            .where("id", "=", id)
            .executeTakeFirstOrThrow();
          const key = app.deps.config.storeSync.tokenKey as Buffer;
          const c = openCredentials(key, id, row.credentials);
          return c.platform === "woocommerce" ? c.webhookSecret : undefined;
        };
        const secret = await secretOf();
        expect(secret).toMatch(/^[\w-]{43}$/);
        expect(woo.webhooks.every((w) => w.secret === secret)).toBe(true);
        expect(await connect(app.deps, input)).toBe(id);
        expect(await secretOf()).toBe(secret);
      } finally {
        await woo.close();
      }
    });
  });
}
