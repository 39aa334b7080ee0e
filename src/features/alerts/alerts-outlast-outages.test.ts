/**
 * Alerts outlast outages, on a simulated clock that drives the job schedule (the worker claims
 * what is due by that clock, one simulated minute at a time), with a real SMTP server and the
 * fake Slack on loopback:
 * - the SMTP server is down for two hours, then back: every e-mail alert arrives, once, and
 *   none was given up meanwhile;
 * - a chat webhook fails for two hours: each account's owner is e-mailed once, an hour in, and
 *   every chat alert is delivered, once, when the webhook answers again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type SeededVip, seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { manualClock } from "../../../test/support/orders.js";
import { startSmtpServer, type TestSmtpServer } from "../../../test/support/smtp-server.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import { createWorker, type Worker } from "../../jobs/worker.js";
import { type AlertDelivery, createAlertDelivery } from "./alert-deps.js";
import { alertTasks } from "./alert-tasks.js";
import type { ChatMessage } from "./build-chat-message.js";
import { enqueueVipAlerts } from "./enqueue-vip-alerts.js";

const MINUTE = 60_000;
const FROM = "velvet@example.com";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`alerts outlast outages on ${engine.name}`, () => {
    const clock = manualClock(Date.UTC(2026, 0, 5, 9, 0));
    let testDeps: TestDeps;
    let smtp: TestSmtpServer | null = null;
    let chat: FakeChatServer;
    beforeAll(async () => {
      chat = await startChatServer();
      testDeps = await startTestDeps(engine, { clock, env: { WEBHOOKS_ALLOW_PRIVATE: "true" } });
    });
    afterAll(async () => {
      await testDeps?.close();
      await smtp?.close();
      await chat?.close();
    });

    async function queue(vips: SeededVip[]): Promise<string[]> {
      const { deps } = testDeps;
      const queued = await deps.db.kysely.transaction().execute(async (trx) => {
        const all = [];
        for (const vip of vips) all.push(...(await enqueueVipAlerts(trx, vip, clock.now())));
        return all;
      });
      return queued.map((q) => q.alertId);
    }

    /** Moves the clock a minute at a time, running whatever falls due, for `minutes`. */
    async function simulate(worker: Worker, minutes: number): Promise<void> {
      for (let m = 0; m < minutes; m++) {
        clock.set(clock.now() + MINUTE);
        while ((await worker.runOnce()) > 0) {}
      }
    }

    const alertRows = (ids: string[]) =>
      testDeps.deps.db.kysely
        .selectFrom("alerts")
        .select(["id", "status", "attempts", "message_id"])
        .where("id", "in", ids)
        .execute();

    it("e-mail: SMTP down for two hours, then back: every alert delivered, once", async () => {
      const { deps } = testDeps;
      // A port with nothing listening: connections are refused, as with a mail server down.
      const first = await startSmtpServer();
      const port = first.port;
      await first.close();
      const delivery: AlertDelivery = createAlertDelivery(
        { alerts: { smtpUrl: `smtp://127.0.0.1:${port}`, from: FROM, allowPrivateWebhooks: true } },
        { mailTimeoutMs: 2000 },
      );
      const worker = createWorker(deps, alertTasks(delivery), { concurrency: 10 });
      try {
        const vips: SeededVip[] = [];
        for (let i = 0; i < 8; i++)
          vips.push(await seedVip(deps, { alertEmails: ["team@acme.test"] }));
        const ids = await queue(vips);
        expect(ids).toHaveLength(8);

        await simulate(worker, 120);
        const during = await alertRows(ids);
        expect(during.filter((a) => a.status !== "pending")).toEqual([]);
        // Retried all along (5 s doubling to about 10 minutes), not given up after half an hour.
        for (const a of during) expect(a.attempts).toBeGreaterThanOrEqual(12);

        smtp = await startSmtpServer(port);
        await simulate(worker, 20);
        const after = await alertRows(ids);
        expect(after.filter((a) => a.status !== "delivered")).toEqual([]);
        const alertMail = smtp.messages.filter((m) =>
          after.some((a) => a.message_id === m.parsed.messageId),
        );
        expect(alertMail.map((m) => m.parsed.messageId).sort()).toEqual(
          after.map((a) => a.message_id).sort(),
        );
        // The owners' notice is told at most once per account (the alerts may beat it to the
        // mail server, which ends the outage and makes the notice moot).
        const notices = smtp.messages.filter((m) =>
          m.parsed.subject?.startsWith("Velvet: VIP alerts by e-mail"),
        );
        expect(notices.length).toBeLessThanOrEqual(vips.length);
        expect(new Set(notices.map((m) => m.parsed.messageId)).size).toBe(notices.length);
      } finally {
        await delivery.close();
      }
    }, 120_000);

    it("chat: a webhook failing for two hours: owners told once an hour in; all delivered, once, after", async () => {
      const { deps } = testDeps;
      if (smtp === null) throw new Error("the SMTP server of the previous test is needed");
      const mail = smtp;
      const delivery = createAlertDelivery(
        { alerts: { smtpUrl: mail.url, from: FROM, allowPrivateWebhooks: true } },
        { pacingIntervalMs: 0 },
      );
      const worker = createWorker(deps, alertTasks(delivery), { concurrency: 10 });
      try {
        const vips: SeededVip[] = [];
        for (let i = 0; i < 3; i++) vips.push(await seedVip(deps, { webhookUrl: chat.webhookUrl }));
        const owners = await deps.db.kysely
          .selectFrom("users")
          .select(["account_id", "email"])
          .where(
            "account_id",
            "in",
            vips.map((v) => v.accountId),
          )
          .execute();
        const before = mail.messages.length;
        chat.always("server_error");
        const ids = await queue(vips);

        await simulate(worker, 55);
        expect(mail.messages.length).toBe(before);
        await simulate(worker, 65);
        const notices = mail.messages.slice(before);
        expect(notices.map((m) => m.rcptTo).sort()).toEqual(owners.map((o) => [o.email]).sort());
        for (const notice of notices) {
          expect(notice.parsed.subject).toBe(
            "Velvet: VIP alerts by team chat (webhook) have been failing for 60 minutes",
          );
          expect(notice.parsed.text).toContain("500 server_error");
        }
        expect((await alertRows(ids)).filter((a) => a.status !== "pending")).toEqual([]);

        chat.always("ok");
        const failedRequests = chat.requests.length;
        await simulate(worker, 20);
        expect((await alertRows(ids)).filter((a) => a.status !== "delivered")).toEqual([]);
        const delivered = chat.requests.slice(failedRequests);
        expect(delivered).toHaveLength(ids.length);
        const deliveryIds = delivered.map(
          (r) => (r.body as ChatMessage).metadata?.event_payload.delivery_id,
        );
        expect(new Set(deliveryIds).size).toBe(ids.length);
        // Told once: no second notice for the same outage, nor after it ended.
        expect(mail.messages.length).toBe(before + owners.length);
        const outages = await deps.db.kysely
          .selectFrom("alert_channel_outages")
          .selectAll()
          .execute();
        expect(outages).toEqual([]);
      } finally {
        await delivery.close();
      }
    }, 120_000);
  });
}
