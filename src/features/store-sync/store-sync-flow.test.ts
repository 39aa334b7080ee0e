/**
 * Store sync end to end on a running server (in-process worker), on both engines: connecting a
 * shop makes its job pull the history (enriched, no alert), a new order placed in the shop after
 * connecting reaches the worker on the next sync and its VIP is alerted by chat (fake Slack) and
 * e-mail (real SMTP server); a revoked token breaks the connection without a retry storm.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../test/fakes/shopify-admin.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startSmtpServer, type TestSmtpServer } from "../../../test/support/smtp-server.js";
import { connect, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { loadConfig } from "../../config.js";
import { updateAccount } from "../accounts/update-account.js";
import { createAlertDelivery } from "../alerts/alert-deps.js";
import { listConnections } from "./list-connections.js";

const DAY = 24 * 60 * 60 * 1000;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`store sync on a running server (${engine.name})`, () => {
    let fakes: FakeProviders;
    let chat: FakeChatServer;
    let smtp: TestSmtpServer;
    let shopify: FakeShopify;
    let app: TestApp;
    let account: TestAccount;

    beforeAll(async () => {
      [fakes, chat, smtp, shopify] = await Promise.all([
        startFakeProviders(),
        startChatServer(),
        startSmtpServer(),
        startFakeShopify(),
      ]);
      const env = {
        ...fakes.env,
        ...STORE_SYNC_ENV,
        GRAVATAR_RATE_LIMIT_PER_MIN: "6000",
        SMTP_URL: smtp.url,
        STORE_SYNC_INTERVAL_SECONDS: "5",
      };
      const alerts = createAlertDelivery(loadConfig(env), { pacingIntervalMs: 0 });
      app = await startTestApp(engine, { worker: true, env, alerts });
      account = await app.createAccount({ name: "Acme Store" });
      await updateAccount(app.deps.db.kysely, account.accountId, {
        channels: { slack_webhook_url: chat.webhookUrl, alert_emails: "team@acme.test" },
      });
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), chat?.close(), smtp?.close(), shopify?.close()]);
    });

    const customer = (email: string) =>
      app.deps.db.kysely
        .selectFrom("customers")
        .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
        .select(["customers.id", "customers.enrichment_status", "enrichments.vip"])
        .where("customers.store_id", "=", account.storeId)
        .where("customers.email_normalized", "=", email)
        .executeTakeFirst();

    it("connect → history arrives quietly → a new VIP order is alerted by chat and e-mail", async () => {
      const old = `grace-${engine.name}@navy-systems.com`;
      shopify.orders.push(shopifyOrder(old, new Date(Date.now() - 10 * DAY)));
      const connectionId = await connect(app.deps, {
        accountId: account.accountId,
        shop: shopify.shop,
        credentials: { platform: "shopify", token: shopify.token },
      });
      await waitFor(
        "the history enriched",
        async () => (await customer(old))?.enrichment_status === "enriched",
        20_000,
      );
      const historical = await customer(old);
      expect(historical?.vip).toBe(1);

      const fresh = `ada-${engine.name}@navy-systems.com`;
      shopify.orders.push(shopifyOrder(fresh, new Date(), { first: "Ada", last: "Lovelace" }));
      await waitFor(
        "the new order pulled and enriched",
        async () => (await customer(fresh))?.enrichment_status === "enriched",
        20_000,
      );
      const live = await customer(fresh);
      expect(live?.vip).toBe(1);
      await waitFor(
        "the chat message and the e-mail",
        () =>
          chat.requests.some((r) => JSON.stringify(r.body).includes(live?.id ?? "?")) &&
          smtp.messages.some((m) => (m.parsed.text ?? "").includes(live?.id ?? "?")),
        20_000,
      );
      // The historical VIP was scored but never alerted.
      expect(
        chat.requests.some((r) => JSON.stringify(r.body).includes(historical?.id ?? "?")),
      ).toBe(false);
      const [view] = await listConnections(app.deps.db.kysely, account.accountId);
      expect(view).toMatchObject({ connectionId, state: "active", ordersSynced: 2 });
    });

    it("a token revoked in the shop breaks the connection; the worker stops calling", async () => {
      // A shop of its own: the first test's connection keeps syncing with the shared fake.
      const shop = await startFakeShopify();
      onTestFinished(() => shop.close());
      const other = await app.createAccount({ name: "Revoked Store" });
      const connectionId = await connect(app.deps, {
        accountId: other.accountId,
        shop: shop.shop,
        credentials: { platform: "shopify", token: shop.token },
      });
      // Every later call is refused, as after the merchant uninstalls the app.
      const refuse = { status: 401, body: '{"errors":"[API] Invalid API key or access token"}' };
      shop.reply(...Array.from({ length: 50 }, () => refuse));
      const before = shop.requests.length;
      await waitFor(
        "the connection broken",
        async () => {
          const [view] = await listConnections(app.deps.db.kysely, other.accountId);
          return view?.state === "broken";
        },
        20_000,
      );
      const [view] = await listConnections(app.deps.db.kysely, other.accountId);
      expect(view?.connectionId).toBe(connectionId);
      expect(view?.lastError).toMatch(/refused the credentials \(401/);
      const calls = shop.requests.length;
      expect(calls - before).toBe(1);
      // Past the next interval its job has looked at the row again, without calling Shopify.
      const job = () =>
        app.deps.db.kysely
          .selectFrom("jobs")
          .select(["updated_at"])
          .where("job_key", "=", `store-sync:${connectionId}`)
          .executeTakeFirst();
      const seen = (await job())?.updated_at;
      await waitFor("the job's next look", async () => (await job())?.updated_at !== seen, 15_000);
      expect(shop.requests.length).toBe(calls);
    });
  });
}
