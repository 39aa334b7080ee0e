/**
 * A connection's last error (the Stores page, `velvet store list`) never holds its secrets, on
 * both engines: the fake Shopify and WooCommerce answer a sync with a refusal or a server error
 * that repeats the Admin API token, the client secret and the token it granted, or the consumer
 * secret, whole or cut short by the excerpt; the error is kept with "[secret hidden]" instead.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { startFakeShopify } from "../../../test/fakes/shopify-admin.js";
import { startFakeWooCommerce } from "../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../test/support/databases.js";
import {
  connect,
  connectionRow,
  runSync,
  STORE_SYNC_ENV,
} from "../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { listConnections } from "./list-connections.js";

/** Long enough that the excerpt (200 characters) cuts the secret after it. */
const PADDING = "x".repeat(190);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `a connection's last error hides its secrets (${engine.name})`,
    () => {
      let app: TestApp;
      beforeAll(async () => {
        app = await startTestApp(engine, { env: STORE_SYNC_ENV });
      });
      afterAll(async () => {
        await app?.close();
      });

      /** The stored error and the listed one, both without any of the secrets. */
      const expectHidden = async (accountId: string, connectionId: string, secrets: string[]) => {
        const row = await connectionRow(app.deps, connectionId);
        const [view] = await listConnections(app.deps.db.kysely, accountId);
        for (const shown of [row.last_error, view?.lastError]) {
          expect(shown).toContain("[secret hidden]");
          for (const secret of secrets) expect(shown).not.toContain(secret.slice(0, 8));
        }
        return row.last_error ?? "";
      };

      it("Shopify: a refusal that repeats the Admin API token", async () => {
        const shop = await startFakeShopify();
        onTestFinished(() => shop.close());
        const account = await app.createAccount();
        const id = await connect(app.deps, {
          accountId: account.accountId,
          shop: shop.shop,
          credentials: { platform: "shopify", token: shop.token },
        });
        shop.reply({ status: 401, body: `{"errors":"token ${shop.token} was revoked"}` });
        expect(await runSync(app.deps, id)).toMatchObject({ kind: "broken" });
        const error = await expectHidden(account.accountId, id, [shop.token]);
        expect(error).toContain("token [secret hidden] was revoked");
      });

      it("Shopify: a server error that repeats the client secret and the token it granted", async () => {
        const shop = await startFakeShopify();
        onTestFinished(() => shop.close());
        const account = await app.createAccount();
        const id = await connect(app.deps, {
          accountId: account.accountId,
          shop: shop.shop,
          credentials: {
            platform: "shopify",
            clientId: shop.clientId,
            clientSecret: shop.clientSecret,
          },
        });
        const granted = shop.requests.findLast((r) => r.path === "graphql")?.token ?? "";
        expect(granted).toMatch(/^shpat_/);
        shop.reply({
          status: 502,
          body: `upstream sent client_secret=${shop.clientSecret} token=${granted}`,
        });
        expect(await runSync(app.deps, id)).toMatchObject({ kind: "failed" });
        await expectHidden(account.accountId, id, [shop.clientSecret, granted]);

        // Cut short by the excerpt: the start of the token is hidden too.
        shop.reply({ status: 502, body: `${PADDING} ${granted}` });
        expect(await runSync(app.deps, id)).toMatchObject({ kind: "failed" });
        const cut = await expectHidden(account.accountId, id, [granted]);
        expect(cut).toMatch(/\[secret hidden\]…$/);
      });

      it("WooCommerce: a refusal and a server error that repeat the consumer secret", async () => {
        const woo = await startFakeWooCommerce();
        onTestFinished(() => woo.close());
        const account = await app.createAccount();
        const id = await connect(app.deps, {
          accountId: account.accountId,
          shop: woo.url,
          credentials: { platform: "woocommerce", key: woo.key, secret: woo.secret },
        });
        woo.reply({ status: 500, body: `${PADDING}${woo.secret}` });
        expect(await runSync(app.deps, id)).toMatchObject({ kind: "failed" });
        await expectHidden(account.accountId, id, [woo.secret]);

        woo.reply({
          status: 403,
          body: `{"code":"woocommerce_rest_cannot_view","message":"${woo.secret} may not read orders"}`,
        });
        expect(await runSync(app.deps, id)).toMatchObject({ kind: "broken" });
        const error = await expectHidden(account.accountId, id, [woo.secret]);
        expect(error).toContain("[secret hidden] may not read orders");
      });
    },
  );
}
