/**
 * A signed-in user sees and changes only their own account: every page and every action,
 * tried by account B against account A's data, answers as if A's data did not exist.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../test/browser/http-browser.js";
import {
  FIXTURE_VIP_SIGNALS,
  insertAlertRows,
  insertEnrichedRow,
} from "../../../test/browser/result-rows.js";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { ENGINES } from "../../../test/support/databases.js";
import { signInNewAccount } from "../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`account isolation in the dashboard on ${engine.name}`, () => {
    let app: TestApp;
    let chat: FakeChatServer;
    let a: {
      browser: HttpBrowser;
      apiKey: string;
      customerId: string;
      keyId: string;
      accountId: string;
    };
    let b: HttpBrowser;
    const A_EMAIL = "vip.of.a@example.com";

    async function accountRow(accountId: string) {
      return app.deps.db.kysely
        .selectFrom("accounts")
        .selectAll()
        .where("id", "=", accountId)
        .executeTakeFirstOrThrow();
    }

    beforeAll(async () => {
      chat = await startChatServer();
      app = await startTestApp(engine, { env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
      const signedA = await signInNewAccount(app, { storeName: "Store A" });
      const res = await app.submit(signedA.apiKey, {
        email: A_EMAIL,
        firstName: "Alice",
        lastName: "Astor",
        order: { id: "A-1", total: "900.00" },
      });
      const { customerId } = (await res.json()) as { customerId: string };
      const key = await app.deps.db.kysely
        .selectFrom("api_keys")
        .innerJoin("stores", "stores.id", "api_keys.store_id")
        .innerJoin("customers", "customers.store_id", "stores.id")
        .select(["api_keys.id", "stores.account_id"])
        .where("customers.id", "=", customerId)
        .executeTakeFirstOrThrow();
      a = { ...signedA, customerId, keyId: key.id, accountId: key.account_id };
      const { score } = await insertEnrichedRow(app.deps.db.kysely, customerId, {
        signals: FIXTURE_VIP_SIGNALS,
      });
      await insertAlertRows(app.deps.db.kysely, {
        accountId: a.accountId,
        customerId,
        channel: "email",
        status: "delivered",
        target: "team-a@example.com",
        score,
        attempts: [{ outcome: "delivered", statusCode: 250, error: null }],
      });
      await a.browser.submit("/settings/alerts", "/settings/alerts", {
        threshold: "70",
        webhook: chat.webhookUrl,
        emails: "team-a@example.com",
      });
      ({ browser: b } = await signInNewAccount(app, { storeName: "Store B" }));
    });
    afterAll(async () => {
      await app?.close();
      await chat?.close();
    });

    it("shows A's customer, alert and key to A (the control)", async () => {
      expect((await a.browser.page(`/customers/${a.customerId}`)).html).toContain(A_EMAIL);
      expect((await a.browser.page("/customers")).html).toContain(A_EMAIL);
      expect((await a.browser.page("/customers.csv")).html).toContain(A_EMAIL);
      expect((await a.browser.page("/alerts")).html).toContain(A_EMAIL);
      expect((await a.browser.page("/")).html).toContain("Alice Astor");
      expect((await a.browser.page("/settings/billing")).html).toMatch(
        /<div class="value">1<\/div>/,
      );
      expect((await a.browser.page("/settings/integrations")).html).toContain(a.keyId);
      expect((await a.browser.page("/settings/alerts")).html).toContain("team-a@example.com");
    });

    it("answers 404 to A's customer page for B, and to malformed ids", async () => {
      for (const path of [
        `/customers/${a.customerId}`,
        `/customers/${a.customerId.toUpperCase()}`,
        "/customers/not-an-id",
        "/customers/%27%20or%201%3D1",
        "/customers/00000000-0000-7000-8000-000000000000",
      ]) {
        const { res, html } = await b.page(path);
        expect(res.status, path).toBe(404);
        expect(html, path).not.toContain(A_EMAIL);
        expect(html).toContain("Page not found");
      }
    });

    it("keeps A's data off every one of B's pages", async () => {
      const pages = [
        "/",
        "/?period=90",
        "/customers",
        `/customers?q=${encodeURIComponent(A_EMAIL)}`,
        "/customers?q=alice",
        "/customers?vip=1&sort=score",
        "/customers.csv",
        `/customers.csv?q=${encodeURIComponent(A_EMAIL)}`,
        "/customers.csv?vip=1",
        "/alerts",
        "/alerts?status=delivered",
        "/settings/integrations",
        "/settings/alerts",
        "/settings/billing",
        "/settings/system",
      ];
      for (const path of pages) {
        const { res, html: page } = await b.page(path);
        expect(res.status, path).toBe(200);
        // The search box repeats what was searched for; the results are what must be empty.
        const html = page.replace(/<input type="search"[^>]*>/, "");
        if (path.startsWith("/customers?q=")) expect(html).toContain("No customers match");
        // B's download is B's own list: the header row and no customer of A's.
        if (path.startsWith("/customers.csv")) expect(html.split("\r\n")).toHaveLength(2);
        for (const secret of [
          A_EMAIL,
          "Alice",
          a.customerId,
          a.keyId,
          "team-a@example.com",
          new URL(chat.webhookUrl).host,
        ]) {
          expect(html, `${path} shows ${secret}`).not.toContain(secret);
        }
      }
      expect((await b.page("/settings/billing")).html).toMatch(/<div class="value">0<\/div>/);
    });

    it("refuses B's revoke and regenerate of A's key with 404, leaving it working", async () => {
      for (const action of ["revoke", "regenerate"]) {
        const res = await b.submit(
          "/settings/integrations",
          `/settings/integrations/keys/${a.keyId}/${action}`,
        );
        expect(res.status, action).toBe(404);
      }
      const keys = await app.deps.db.kysely
        .selectFrom("api_keys")
        .innerJoin("stores", "stores.id", "api_keys.store_id")
        .select(["api_keys.revoked_at"])
        .where("stores.account_id", "=", a.accountId)
        .execute();
      expect(keys).toEqual([{ revoked_at: null }]);
      expect(
        (await app.submit(a.apiKey, { email: "x@example.com", firstName: "X", lastName: "Y" }))
          .status,
      ).toBe(200);
    });

    it("lets B's settings, webhook removal, test message and log-out touch only B", async () => {
      const before = await accountRow(a.accountId);
      await b.submit("/settings/alerts", "/settings/alerts", {
        threshold: "5",
        webhook: "",
        emails: "team-b@example.com",
      });
      await b.submit("/settings/alerts", "/settings/alerts/webhook/remove");
      const test = await b.submit("/settings/alerts", "/settings/alerts/test");
      expect(test.status).toBe(303);
      expect(chat.requests).toHaveLength(0);
      expect(await accountRow(a.accountId)).toEqual(before);
      const keyGen = await b.submit("/settings/integrations", "/settings/integrations/keys");
      expect(keyGen.status).toBe(303);
      const aKeys = await app.deps.db.kysely
        .selectFrom("api_keys")
        .innerJoin("stores", "stores.id", "api_keys.store_id")
        .select("api_keys.id")
        .where("stores.account_id", "=", a.accountId)
        .execute();
      expect(aKeys).toHaveLength(1);
      await b.submit("/", "/logout");
      expect((await a.browser.get("/")).status).toBe(200);
    });
  });
}
