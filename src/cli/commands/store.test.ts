/**
 * `velvet store …` as a merchant's operator runs it, on both engines, against the fake Shopify
 * Admin API: connect (credentials checked first, never printed), list, a broken connection shown
 * with its error, pause, resume and disconnect, and the refusal without STORE_TOKEN_KEY.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { openTestDeps } from "../../../test/support/job-deps.js";
import { runSync, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { closeDeps } from "../../main.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet store (${engine.name})`, () => {
    let database: TestDatabase;
    let shopify: FakeShopify;
    let env: Record<string, string>;
    let accountId: string;

    beforeAll(async () => {
      database = await engine.createMigrated();
      shopify = await startFakeShopify();
      shopify.orders.push(shopifyOrder("ada@navy-systems.com", new Date(Date.now() - 86_400_000)));
      env = { DATABASE_URL: database.url, ...STORE_SYNC_ENV };
      const created = onlyJson(
        await runVelvet(
          ["account", "create", "--name", "Acme", "--owner", "owner@acme.test", "--json"],
          env,
        ),
      );
      accountId = String(created.accountId);
    });
    afterAll(async () => {
      await shopify?.close();
      await database?.drop();
    });

    it("connects, lists, shows a broken connection, pauses, resumes and disconnects", async () => {
      const refused = await runVelvet(
        [
          "store",
          "connect",
          "shopify",
          "--account",
          accountId,
          "--shop",
          shopify.shop,
          "--token",
          "shpat_wrong",
        ],
        env,
      );
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(
        /Shopify did not accept the connection: the store refused the credentials \(401/,
      );

      const noKey = await runVelvet(
        [
          "store",
          "connect",
          "shopify",
          "--account",
          accountId,
          "--shop",
          shopify.shop,
          "--token",
          shopify.token,
        ],
        { ...env, STORE_TOKEN_KEY: "" },
      );
      expect(noKey.code).not.toBe(0);
      expect(noKey.stderr).toContain("Connecting a store needs STORE_TOKEN_KEY");

      const connected = onlyJson(
        await runVelvet(
          [
            "store",
            "connect",
            "shopify",
            "--account",
            accountId,
            "--shop",
            shopify.shop,
            "--token",
            shopify.token,
            "--backfill-days",
            "30",
            "--json",
          ],
          env,
        ),
      );
      expect(connected).toMatchObject({
        platform: "shopify",
        reconnected: false,
        backfillDays: 30,
      });
      const id = String(connected.connectionId);

      // The worker's run, here in the test's process: the token is then revoked in the shop.
      const deps = await openTestDeps(database, { env: STORE_SYNC_ENV });
      try {
        shopify.reply({ status: 401, body: '{"errors":"[API] Invalid API key or access token"}' });
        expect((await runSync(deps, id)).kind).toBe("broken");
      } finally {
        await closeDeps(deps);
      }
      const listed = await runVelvet(["store", "list", "--account", accountId], env);
      expect(listed.stdout).toContain("broken");
      expect(listed.stdout).toContain("refused the credentials (401");
      expect(listed.stdout).toContain(`…${shopify.token.slice(-4)}`);
      expect(listed.stdout + listed.stderr).not.toContain(shopify.token);

      expect(onlyJson(await runVelvet(["store", "resume", id, "--json"], env))).toEqual({
        connectionId: id,
        state: "active",
      });
      expect(onlyJson(await runVelvet(["store", "pause", id, "--json"], env))).toEqual({
        connectionId: id,
        state: "paused",
      });
      const json = onlyJson(await runVelvet(["store", "list", "--json"], env));
      expect(json.connections).toEqual([
        expect.objectContaining({ connectionId: id, state: "paused", lastError: null, accountId }),
      ]);
      expect(onlyJson(await runVelvet(["store", "disconnect", id, "--json"], env))).toMatchObject({
        dryRun: true,
        connectionId: id,
        state: "paused",
      });
      expect(
        onlyJson(await runVelvet(["store", "disconnect", id, "--yes", "--json"], env)),
      ).toEqual({
        connectionId: id,
        state: "disconnected",
        // No webhooks were subscribed (no PUBLIC_BASE_URL): none left in the store.
        webhooksLeft: null,
      });
      expect(onlyJson(await runVelvet(["store", "list", "--json"], env)).connections).toEqual([]);
      const audit = await runVelvet(["audit", "list", "--account", accountId], env);
      for (const label of [
        "Store connected",
        "Store sync paused",
        "Store sync resumed",
        "Store disconnected",
      ]) {
        expect(audit.stdout).toContain(label);
      }
    }, 60_000);

    it("connects a Dev Dashboard app by client id and secret, says when Shopify cuts the backfill, lists skips by reason", async () => {
      const shop = await startFakeShopify({ scopes: "read_orders,read_customers" });
      try {
        shop.orders.push(shopifyOrder("grace@navy-systems.com", new Date(Date.now() - 86_400_000)));
        shop.orders.push({
          ...shopifyOrder("test@navy-systems.com", new Date(Date.now() - 3_600_000)),
          test: true,
        });
        const base = ["store", "connect", "shopify", "--account", accountId, "--shop", shop.shop];
        const both = await runVelvet([...base, "--token", shop.token, "--client-id", "x"], env);
        expect(both.code).not.toBe(0);
        expect(both.stderr).toMatch(/either --client-id and --client-secret .* or --token/);

        const app = ["--client-id", shop.clientId, "--client-secret", shop.clientSecret];
        const connected = await runVelvet([...base, ...app, "--backfill-days", "365"], env);
        expect(connected.code).toBe(0);
        expect(connected.stdout).toContain("the last 60 days first");
        expect(connected.stdout).toMatch(/Only 60 of the 365 days asked: .*read_all_orders/);
        expect(connected.stdout + connected.stderr).not.toContain(shop.clientSecret);
        const [row] = (
          onlyJson(await runVelvet(["store", "list", "--json"], env)).connections as Array<{
            connectionId: string;
          }>
        ).slice(-1);
        const deps = await openTestDeps(database, { env: STORE_SYNC_ENV });
        try {
          expect(await runSync(deps, String(row?.connectionId))).toMatchObject({ newOrders: 1 });
        } finally {
          await closeDeps(deps);
        }
        const listed = await runVelvet(["store", "list", "--account", accountId], env);
        expect(listed.stdout).toContain("skipped 1 (test order 1)");
      } finally {
        await shop.close();
      }
    }, 60_000);

    it("--dry-run checks the credentials, counts and prices the backfill, and saves nothing", async () => {
      const shop = await startFakeShopify();
      try {
        const now = Date.now();
        for (let i = 0; i < 3; i++)
          shop.orders.push(
            shopifyOrder(`dry-${i}@navy-systems.com`, new Date(now - (i + 1) * 86_400_000)),
          );
        shop.orders.push({
          ...shopifyOrder("dry-test@navy-systems.com", new Date(now - 3_600_000)),
          test: true,
        });
        shop.orders.push(shopifyOrder("dry-old@navy-systems.com", new Date(now - 40 * 86_400_000)));
        const paid = { ...env, PDL_API_KEY: "pdl-key", PDL_PRICE_USD: "0.28" };
        const set = await runVelvet(
          ["account", "set", "--account", accountId, "--monthly-budget", "0.50"],
          env,
        );
        expect(set.code).toBe(0);
        const connections = async () =>
          (onlyJson(await runVelvet(["store", "list", "--json"], env)).connections as unknown[])
            .length;
        const audit = async () =>
          (await runVelvet(["audit", "list", "--account", accountId, "--json"], env)).stdout;
        const [held, trail] = await Promise.all([connections(), audit()]);
        const base = ["store", "connect", "shopify", "--account", accountId, "--shop", shop.shop];
        const args = [...base, "--token", shop.token, "--backfill-days", "30", "--dry-run"];

        const json = onlyJson(await runVelvet([...args, "--json"], paid));
        expect(json).toMatchObject({
          dryRun: true,
          platform: "shopify",
          backfillDays: 30,
          orders: { count: 4, precision: "exact" },
          skipReasons: { "test order": 1 },
          newCustomers: 3,
          newCustomersPrecision: "exact",
          charges: 3,
          amountUsd: "0.15",
          providers: [{ provider: "pdl", lookups: 3, amountUsd: "0.84" }],
          providerCostUsd: "0.84",
          budgetUsd: "0.50",
          budgetLeftUsd: "0.50",
          budgetCovers: false,
        });
        const text = await runVelvet(args, paid);
        expect(text.code).toBe(0);
        expect(text.stdout).toContain("Dry run: nothing was saved.");
        expect(text.stdout).toContain("since");
        expect(text.stdout).toContain(": 4 orders.");
        expect(text.stdout).toContain("New customers: 3 (every order read");
        expect(text.stdout).toContain("Would charge: 3 enrichments, $0.15");
        expect(text.stdout).toContain(
          "Provider lookups: at most $0.84 (pdl $0.84); $0.50 left of the $0.50 monthly budget does not cover it",
        );
        const refused = await runVelvet([...base, "--token", "shpat_wrong", "--dry-run"], paid);
        expect(refused.code).not.toBe(0);
        expect(refused.stderr).toMatch(
          /Shopify did not accept the connection: the store refused the credentials \(401/,
        );
        expect(await connections()).toBe(held);
        expect(await audit()).toBe(trail);
      } finally {
        await shop.close();
      }
    }, 60_000);
  });
}
