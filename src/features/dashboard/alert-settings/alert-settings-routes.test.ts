import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../../test/browser/http-browser.js";
import { type FakeChatServer, startChatServer } from "../../../../test/fakes/chat-server.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { loadConfig } from "../../../config.js";
import { createAlertDelivery } from "../../alerts/alert-deps.js";
import { readChannelValues } from "../../alerts/channels/channel-registry.js";

async function save(browser: HttpBrowser, fields: Record<string, string>) {
  return browser.submit("/settings/alerts", "/settings/alerts", {
    threshold: "70",
    webhook: "",
    emails: "",
    ...fields,
  });
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Settings → Alerts on ${engine.name}`, () => {
    let app: TestApp;
    let chat: FakeChatServer;
    beforeAll(async () => {
      chat = await startChatServer();
      // The fake chat server is on loopback: allowed only with WEBHOOKS_ALLOW_PRIVATE.
      app = await startTestApp(engine, {
        env: { WEBHOOKS_ALLOW_PRIVATE: "true", PUBLIC_BASE_URL: "https://velvet.example.com" },
      });
    });
    afterAll(async () => {
      await app?.close();
      await chat?.close();
    });

    async function account(browser: HttpBrowser) {
      const { html } = await browser.page("/settings/alerts");
      const name = /<span class="who">([^·<]+) ·/.exec(html)?.[1]?.trim() ?? "";
      const row = await app.deps.db.kysely
        .selectFrom("accounts")
        .selectAll()
        .where("name", "=", name)
        .executeTakeFirstOrThrow();
      const channels = await readChannelValues(
        app.deps.db.kysely,
        row.id,
        app.deps.config.storeSync.tokenKey,
      );
      return {
        ...row,
        slack_webhook_url: channels.slack_webhook_url ?? null,
        alert_emails: channels.alert_emails ?? null,
      };
    }

    it("saves the threshold, the webhook and the addresses, and shows the webhook only masked", async () => {
      const { browser } = await signInNewAccount(app, { storeName: `Alerts ${Date.now()}` });
      const res = await save(browser, {
        threshold: "55",
        webhook: chat.webhookUrl,
        emails: "a@example.com\nb@example.com, a@example.com",
      });
      expect(res.status).toBe(303);
      const { html } = await browser.page(res.headers.get("location") ?? "");
      expect(html).toContain("Alert settings saved.");
      expect(html).toContain('value="55"');
      expect(html).toContain("a@example.com\nb@example.com</textarea>");
      expect(html).not.toContain("abcdefghijklmnopqrstuvwx");
      expect(html).toContain(`${chat.origin}/…uvwx`);
      const row = await account(browser);
      expect(row).toMatchObject({
        vip_threshold: 55,
        slack_webhook_url: chat.webhookUrl,
        alert_emails: "a@example.com,b@example.com",
      });
      // A blank webhook field keeps the saved webhook; clearing the addresses removes them.
      await save(browser, { threshold: "60", emails: "" });
      expect(await account(browser)).toMatchObject({
        vip_threshold: 60,
        slack_webhook_url: chat.webhookUrl,
        alert_emails: null,
      });
    });

    it("refuses bad values field by field and saves nothing", async () => {
      const { browser } = await signInNewAccount(app, { storeName: `Bad ${Date.now()}` });
      const before = await account(browser);
      const res = await save(browser, {
        threshold: "101",
        webhook: "ftp://hooks.example.com/x",
        emails: "ok@example.com, not-an-address",
      });
      expect(res.status).toBe(400);
      const html = await res.text();
      expect(html).toContain("Enter a whole number from 0 to 100.");
      expect(html).toContain("The webhook URL must use https or http.");
      expect(html).toContain("Not valid e-mail addresses: not-an-address.");
      expect(html).toContain("Nothing was saved");
      expect(html).toContain('value="ftp://hooks.example.com/x"');
      expect(await account(browser)).toEqual(before);
      for (const threshold of ["-1", "7.5", "", "abc"])
        expect((await save(browser, { threshold })).status).toBe(400);
      expect((await save(browser, { threshold: "0" })).status).toBe(303);
      expect((await save(browser, { threshold: "100" })).status).toBe(303);
    });

    it("sends a test message to the saved webhook and reports the outcome", async () => {
      const { browser } = await signInNewAccount(app, { storeName: "Test <Shop> & Co" });
      const none = await browser.submit("/settings/alerts", "/settings/alerts/test");
      expect(none.status).toBe(303);
      expect((await browser.page(none.headers.get("location") ?? "")).html).toContain(
        "Save a webhook URL first",
      );

      await save(browser, { webhook: chat.webhookUrl });
      const sentBefore = chat.requests.length;
      const ok = await browser.submit("/settings/alerts", "/settings/alerts/test");
      expect(ok.status).toBe(200);
      expect(await ok.text()).toContain("Test message sent to");
      const request = chat.requests[sentBefore];
      expect(request?.path).toBe(new URL(chat.webhookUrl).pathname);
      const body = request?.body as { text: string; blocks: unknown[] };
      expect(body.text).toContain("Velvet test message for *Test &lt;Shop&gt; &amp; Co*");
      expect(body.text).toContain("https://velvet.example.com/settings/alerts");
      expect(body.blocks.length).toBeGreaterThan(0);

      chat.reply("channel_not_found");
      const failed = await browser.submit("/settings/alerts", "/settings/alerts/test");
      const text = await failed.text();
      expect(text).toContain("could not be delivered (HTTP 404)");
      expect(text).toContain("channel_not_found");
    });

    it("says only 'not a public address' or 'could not be reached' when no chat server answered", async () => {
      // The webhook's name resolves to loopback when the message is sent (DNS rebinding).
      const env = { PUBLIC_BASE_URL: "https://velvet.example.com" };
      const alerts = createAlertDelivery(loadConfig(env), {
        resolve: async () => [{ address: "127.0.0.1", family: 4 }],
      });
      const strict = await startTestApp(engine, { env, alerts });
      try {
        const { browser } = await signInNewAccount(strict);
        await save(browser, { webhook: "https://vm.internal.example.com/hooks/abc" });
        const res = await browser.submit("/settings/alerts", "/settings/alerts/test");
        const html = await res.text();
        expect(html).toContain("the webhook&#39;s address is not a public address");
        expect(html).not.toContain("127.0.0.1");
        expect(html).not.toContain("resolves");
      } finally {
        await strict.close();
      }
      // A closed port: the connection is refused, and the page does not say how.
      const { browser } = await signInNewAccount(app);
      await save(browser, { webhook: `${chat.origin.replace(/:\d+$/, ":1")}/hooks/closed` });
      const res = await browser.submit("/settings/alerts", "/settings/alerts/test");
      const html = await res.text();
      expect(html).toContain("the webhook could not be reached");
      expect(html).not.toContain("ECONNREFUSED");
    });

    it("removes the webhook", async () => {
      const { browser } = await signInNewAccount(app, { storeName: `Remove ${Date.now()}` });
      await save(browser, { webhook: chat.webhookUrl });
      const res = await browser.submit("/settings/alerts", "/settings/alerts/webhook/remove");
      expect(res.status).toBe(303);
      expect((await browser.page(res.headers.get("location") ?? "")).html).toContain(
        "chat alerts are off",
      );
      expect((await account(browser)).slack_webhook_url).toBeNull();
    });

    it("refuses a private webhook address when WEBHOOKS_ALLOW_PRIVATE is off", async () => {
      const strict = await startTestApp(engine);
      try {
        const { browser } = await signInNewAccount(strict);
        for (const webhook of [
          "https://127.0.0.1/hook",
          "https://169.254.169.254/latest",
          "http://hooks.slack.com/services/x",
        ]) {
          const res = await save(browser, { webhook });
          expect(res.status, webhook).toBe(400);
        }
      } finally {
        await strict.close();
      }
    });
  });
}
