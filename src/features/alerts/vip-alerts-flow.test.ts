/**
 * VIP alerts end to end: an order over HTTP → enrichment by the in-process worker (provider
 * fakes) → one chat message (fake Slack webhook) and one e-mail (real SMTP server), on both
 * engines. Nothing is called directly: this is what a merchant's team would receive.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startSmtpServer, type TestSmtpServer } from "../../../test/support/smtp-server.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { drainQueue } from "../../../test/support/test-deps.js";
import { loadConfig } from "../../config.js";
import { updateAccount } from "../accounts/update-account.js";
import { createAlertDelivery } from "./alert-deps.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`VIP alerts end to end on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let chat: FakeChatServer;
    let smtp: TestSmtpServer;
    let app: TestApp;
    let account: TestAccount;
    let n = 0;

    beforeAll(async () => {
      [fakes, chat, smtp] = await Promise.all([
        startFakeProviders(),
        startChatServer(),
        startSmtpServer(),
      ]);
      const env = {
        ...fakes.env,
        GRAVATAR_RATE_LIMIT_PER_MIN: "6000",
        SMTP_URL: smtp.url,
        WEBHOOKS_ALLOW_PRIVATE: "true",
        ALERT_FROM: "Velvet <vip@velvet.test>",
      };
      const alerts = createAlertDelivery(loadConfig(env), { pacingIntervalMs: 0 });
      app = await startTestApp(engine, { worker: true, env, alerts });
      account = await app.createAccount({ name: "Acme Store" });
      await updateAccount(app.deps.db.kysely, account.accountId, {
        channels: {
          slack_webhook_url: chat.webhookUrl,
          alert_emails: "team@acme.test,owner@acme.test",
        },
      });
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all([fakes?.close(), chat?.close(), smtp?.close()]);
    });

    const submit = async (email: string, orderId: string) => {
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Grace",
        lastName: "Hopper",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: orderId, number: `#${orderId}`, total: "1250.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { customerId: string; enrichmentStatus: string };
    };
    const alertRows = (customerId: string) =>
      app.deps.db.kysely
        .selectFrom("alerts")
        .selectAll()
        .where("customer_id", "=", customerId)
        .execute();
    const chatFor = (customerId: string) =>
      chat.requests.filter((r) => JSON.stringify(r.body).includes(customerId));
    const mailFor = (customerId: string) =>
      smtp.messages.filter((m) => (m.parsed.text ?? "").includes(customerId));

    it("a VIP's first order sends exactly one chat message and one e-mail, with the reasons", async () => {
      const email = `grace-${engine.name}-${++n}@navy-systems.com`;
      const { customerId } = await submit(email, `vip-${n}`);
      await waitFor(
        "both channels delivered",
        async () => {
          const rows = await alertRows(customerId);
          return rows.length === 2 && rows.every((r) => r.status === "delivered");
        },
        20_000,
      );

      const [message] = chatFor(customerId);
      expect(chatFor(customerId)).toHaveLength(1);
      const body = message?.body as { text: string; blocks: unknown[] };
      expect(body.text).toContain("Grace Hopper");
      expect(body.blocks.length).toBeGreaterThan(0);
      const blocks = JSON.stringify(body.blocks);
      expect(blocks).toContain(`#vip-${n}`);
      expect(blocks).toContain("$1,250.00");
      expect(blocks).toContain(`/customers/${customerId}`);

      expect(mailFor(customerId)).toHaveLength(1);
      const mail = mailFor(customerId)[0];
      expect(mail?.rcptTo.sort()).toEqual(["owner@acme.test", "team@acme.test"]);
      expect(mail?.parsed.subject).toContain("Grace Hopper");
      expect(mail?.parsed.html).toContain("Grace Hopper");
      const rows = await alertRows(customerId);
      expect(mail?.parsed.messageId).toBe(rows.find((r) => r.channel === "email")?.message_id);

      // Repeat orders and a re-enrichment never alert again.
      await submit(email, `vip-${n}-2`);
      await app.deps.db.kysely
        .updateTable("customers")
        .set({ enrichment_status: "failed" })
        .where("id", "=", customerId)
        .execute();
      expect((await submit(email, `vip-${n}-3`)).enrichmentStatus).toBe("retry");
      await waitFor("re-enriched", async () => {
        const c = await app.deps.db.kysely
          .selectFrom("customers")
          .select("enrichment_status")
          .where("id", "=", customerId)
          .executeTakeFirst();
        return c?.enrichment_status === "enriched";
      });
      // Anything the re-enrichment enqueued has run once the queue is drained.
      await drainQueue(app.deps);
      expect(chatFor(customerId)).toHaveLength(1);
      expect(mailFor(customerId)).toHaveLength(1);
      expect(await alertRows(customerId)).toHaveLength(2);
    });

    it("a customer who is not a VIP triggers no alert", async () => {
      const email = `plain-${engine.name}-${++n}@gmail.com`;
      for (const fake of fakes.all()) fake.setBehaviour(email, { kind: "not_found" });
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Joe",
        lastName: "Average",
        order: { id: `p-${n}`, total: "35.00" },
      });
      const { customerId } = (await res.json()) as { customerId: string };
      await waitFor("enriched", async () => {
        const e = await app.deps.db.kysely
          .selectFrom("enrichments")
          .select("vip")
          .where("customer_id", "=", customerId)
          .executeTakeFirst();
        return e?.vip === 0;
      });
      await drainQueue(app.deps);
      expect(await alertRows(customerId)).toHaveLength(0);
      expect(chatFor(customerId)).toHaveLength(0);
      expect(mailFor(customerId)).toHaveLength(0);
    });

    it("a chat webhook failing twice, then recovering, delivers once with every attempt recorded", async () => {
      chat.reply("server_error", { rateLimited: 1 });
      const email = `retry-${engine.name}-${++n}@navy-systems.com`;
      const { customerId } = await submit(email, `r-${n}`);
      await waitFor(
        "chat delivered",
        async () => {
          const rows = await alertRows(customerId);
          return rows.some((r) => r.channel === "chat" && r.status === "delivered");
        },
        30_000,
      );
      const chatAlert = (await alertRows(customerId)).find((r) => r.channel === "chat");
      const attempts = await app.deps.db.kysely
        .selectFrom("alert_attempts")
        .select(["outcome", "status_code"])
        .where("alert_id", "=", chatAlert?.id ?? "")
        .orderBy("attempted_at")
        .execute();
      expect(attempts.map((a) => [a.outcome, a.status_code])).toEqual([
        ["retry", 500],
        ["retry", 429],
        ["delivered", 200],
      ]);
      // Three requests reached the webhook; only the last was accepted, and none followed it.
      expect(chatFor(customerId)).toHaveLength(3);
    });
  });
}
