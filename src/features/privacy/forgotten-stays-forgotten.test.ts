/**
 * A forgotten person stays forgotten, on both engines: after `customer forget`, a Shopify sync
 * pass that reads their order again (the pass's overlap, or the order edited in the store), a
 * WooCommerce pass, and a re-import of the same file do not bring them back; each such order is
 * counted as skipped ("forgotten customer"). A new order from the same person later is a new
 * customer. Customers erased by retention stay erased the same way, and closing an account
 * remembers every erased customer's orders too. The table holds keyed hashes: neither the order
 * id nor the e-mail.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
  touchWooOrder,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import { ENGINES } from "../../../test/support/databases.js";
import { connect, runSync, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { cliActor } from "../audit/audit-actor.js";
import { importOrders } from "../order-import/import-orders.js";
import { findForgottenOrders, forgottenOrderKeys } from "../orders/forgotten-orders.js";
import { listConnections } from "../store-sync/list-connections.js";
import { closeAccount } from "./close-account.js";
import { eraseAccountCustomers } from "./erase-account-customers.js";
import { eraseCustomer } from "./erase-customer.js";
import { eraseInactiveCustomers } from "./retention/erase-inactive-customers.js";

const DAY = 24 * 60 * 60 * 1000;
const dir = mkdtempSync(join(tmpdir(), "velvet-forgotten-"));

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a forgotten person stays forgotten (${engine.name})`, () => {
    let app: TestApp;
    let shopify: FakeShopify;
    let woo: FakeWooCommerce;

    beforeAll(async () => {
      app = await startTestApp(engine, {
        env: { ...STORE_SYNC_ENV, CUSTOMER_RETENTION_DAYS: "365" },
      });
      [shopify, woo] = await Promise.all([startFakeShopify(), startFakeWooCommerce()]);
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([shopify?.close(), woo?.close()]);
    });

    const customersOf = (account: TestAccount, email: string) =>
      app.deps.db.kysely
        .selectFrom("customers")
        .select(["id"])
        .where("store_id", "=", account.storeId)
        .where("email_normalized", "=", email)
        .execute();
    const forget = (account: TestAccount, email: string) =>
      eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { email },
        actor: cliActor("test"),
      });

    it("a Shopify pass re-reading the order, or the order edited, does not take it again", async () => {
      const account = await app.createAccount({ name: "Forgetful Shop" });
      const email = `ada-${engine.name}@navy-systems.com`;
      const order = shopifyOrder(email, new Date(Date.now() - 2 * DAY));
      shopify.orders.push(order);
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
      });
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 1 });
      expect(await forget(account, email)).not.toBeNull();

      // The next pass starts a second before the last update: it reads the order again.
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 0 });
      order.updatedAt = new Date().toISOString(); // edited in the store (a note, a refund)
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 0 });
      expect(await customersOf(account, email)).toHaveLength(0);
      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view?.skipReasons["forgotten customer"]).toBeGreaterThanOrEqual(1);

      const hashes = await app.deps.db.kysely.selectFrom("forgotten_orders").selectAll().execute();
      expect(JSON.stringify(hashes)).not.toContain(order.legacyResourceId);
      expect(JSON.stringify(hashes)).not.toContain(email);

      // A new order from the same person is a new customer.
      shopify.orders.push(shopifyOrder(email, new Date()));
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 1 });
      expect(await customersOf(account, email)).toHaveLength(1);
    });

    it("a WooCommerce pass does not take the order again", async () => {
      const account = await app.createAccount({ name: "Forgetful Woo" });
      const email = `grace-${engine.name}@navy-systems.com`;
      const order = wooOrder(email, new Date(Date.now() - DAY));
      woo.orders.push(order);
      const id = await connect(app.deps, {
        accountId: account.accountId,
        shop: woo.url,
        credentials: { platform: "woocommerce", key: woo.key, secret: woo.secret },
      });
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 1 });
      expect(await forget(account, email)).not.toBeNull();
      touchWooOrder(order);
      expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 0 });
      expect(await customersOf(account, email)).toHaveLength(0);
    });

    it("a re-import of the same file skips the forgotten person's orders and counts them", async () => {
      const account = await app.createAccount({ name: "Forgetful Import" });
      const email = `alan-${engine.name}@example.com`;
      const path = join(dir, `orders-${engine.name}.csv`);
      writeFileSync(
        path,
        [
          "email,first_name,last_name,phone,city,state,zipcode,country,order_id,order_number,total,currency,ordered_at",
          `${email},Alan,Turing,,Wilmslow,,,GB,t-1,1,20.00,GBP,2024-05-02T10:00:00Z`,
          `${email},Alan,Turing,,Wilmslow,,,GB,t-2,2,30.00,GBP,2024-05-03T10:00:00Z`,
          `keep-${engine.name}@example.com,Joan,Clarke,,London,,,GB,t-3,3,40.00,GBP,2024-05-04T10:00:00Z`,
        ].join("\n"),
      );
      const run = (apply: boolean) =>
        importOrders(app.deps, { accountId: account.accountId, file: path, apply, alerts: false });
      expect(await run(true)).toMatchObject({ orders: 3, newCustomers: 2, forgotten: 0 });
      expect(await forget(account, email)).not.toBeNull();
      expect(await run(false)).toMatchObject({ newCustomers: 0, forgotten: 2, skipped: 1 });
      expect(await run(true)).toMatchObject({ newCustomers: 0, forgotten: 2, skipped: 1 });
      expect(await customersOf(account, email)).toHaveLength(0);
    });

    it("a customer erased by retention is not brought back by importing the old export again", async () => {
      const account = await app.createAccount({ name: "Retention Import" });
      const email = `retired-${engine.name}@example.com`;
      const path = join(dir, `retention-${engine.name}.csv`);
      writeFileSync(
        path,
        [
          "email,first_name,last_name,phone,city,state,zipcode,country,order_id,order_number,total,currency,ordered_at",
          `${email},Grace,Hopper,,Arlington,VA,22201,US,r-1,1,20.00,USD,2023-05-02T10:00:00Z`,
        ].join("\n"),
      );
      const run = () =>
        importOrders(app.deps, {
          accountId: account.accountId,
          file: path,
          apply: true,
          alerts: false,
        });
      expect(await run()).toMatchObject({ newCustomers: 1 });
      expect((await eraseInactiveCustomers(app.deps)).erased).toBeGreaterThanOrEqual(1);
      expect(await customersOf(account, email)).toHaveLength(0);
      expect(await run()).toMatchObject({ newCustomers: 0, forgotten: 1 });
      expect(await customersOf(account, email)).toHaveLength(0);
    });

    it("closing an account remembers the orders of every customer it erases", async () => {
      const account = await app.createAccount({ name: "Closing Shop" });
      const emails = [`ida-${engine.name}@navy-systems.com`, `ken-${engine.name}@navy-systems.com`];
      const orders = emails.map((email) => shopifyOrder(email, new Date(Date.now() - DAY)));
      const shop = await startFakeShopify();
      try {
        shop.orders.push(...orders);
        const id = await connect(app.deps, {
          accountId: account.accountId,
          shop: shop.shop,
          credentials: { platform: "shopify", token: shop.token },
        });
        expect(await runSync(app.deps, id)).toMatchObject({ kind: "synced", newOrders: 2 });
      } finally {
        await shop.close();
      }
      expect(
        await closeAccount(app.deps, { accountId: account.accountId, actor: cliActor("test") }),
      ).toMatchObject({ kind: "closed", customers: 2 });
      expect(await eraseAccountCustomers(app.deps, account.accountId)).toEqual({
        erased: 2,
        more: false,
      });
      const ids = orders.map((o) => o.legacyResourceId);
      const remembered = await findForgottenOrders(
        app.deps.db.kysely,
        forgottenOrderKeys(app.deps.config.storeSync.tokenKey),
        account.storeId,
        ids,
      );
      expect([...remembered].sort()).toEqual([...ids].sort());
    });
  });
}
