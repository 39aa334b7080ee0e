/**
 * The deliver-email-alert task against a real SMTP server and a real database, on both engines:
 * one multipart e-mail with the right content and headers, once; the same Message-ID on a
 * retried send; SMTP 4xx retried, 5xx recorded and not retried; no SMTP_URL, no e-mail.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runAlertJob, seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { startSmtpServer, type TestSmtpServer } from "../../../test/support/smtp-server.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { AppDeps } from "../../app-deps.js";
import { type AlertDelivery, createAlertDelivery } from "./alert-deps.js";
import { deliverEmailAlert } from "./channels/email/email-channel.js";
import { enqueueVipAlerts } from "./enqueue-vip-alerts.js";
import { listAlerts } from "./list-alerts.js";
import {
  EMAIL_WAIT_LIMIT_MS,
  EMAIL_WAIT_RECHECK_MS,
  GAVE_UP_WAITING,
  WAITING_REASON,
} from "./wait-for-mail.js";

const BASE_URL = "https://velvet.example.com";
const FROM = "Velvet Alerts <alerts@velvet.example.com>";
const TEAM = ["team@acme.com", "ceo@acme.com"];

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`deliver-email-alert on ${engine.name}`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    let smtp: TestSmtpServer;
    let delivery: AlertDelivery;
    beforeAll(async () => {
      smtp = await startSmtpServer();
      testDeps = await startTestDeps(engine, {
        env: { SMTP_URL: smtp.url, ALERT_FROM: FROM, PUBLIC_BASE_URL: BASE_URL },
      });
      deps = testDeps.deps;
      delivery = createAlertDelivery(deps.config);
    });
    afterAll(async () => {
      await delivery?.close();
      await testDeps?.close();
      await smtp?.close();
    });
    beforeEach(() => {
      smtp.messages.length = 0;
      smtp.received.length = 0;
    });

    async function queuedAlert() {
      const vip = await seedVip(deps, { alertEmails: TEAM });
      const queued = await deps.db.kysely
        .transaction()
        .execute((trx) => enqueueVipAlerts(trx, vip, deps.clock.now()));
      expect(queued.map((q) => q.channel)).toEqual(["email"]);
      const alertId = queued[0]?.alertId as string;
      const row = await deps.db.kysely
        .selectFrom("alerts")
        .selectAll()
        .where("id", "=", alertId)
        .executeTakeFirstOrThrow();
      const list = async () => (await listAlerts(deps.db.kysely, vip.accountId))[0];
      return { vip, alertId, messageId: row.message_id, list };
    }

    it("sends one e-mail with the content, From, To and the alert's Message-ID, once", async () => {
      const { vip, alertId, messageId, list } = await queuedAlert();
      const task = deliverEmailAlert(delivery);
      expect(await runAlertJob(deps, task, alertId)).toEqual({ kind: "done" });
      expect(await runAlertJob(deps, task, alertId, 2)).toEqual({ kind: "done" });
      expect(smtp.received).toHaveLength(1);
      const mail = smtp.messages[0]?.parsed;
      expect(mail?.messageId).toBe(messageId);
      expect(mail?.subject).toBe("VIP customer: Jane Doe (score 87)");
      expect(mail?.from?.value).toEqual([
        { name: "Velvet Alerts", address: "alerts@velvet.example.com" },
      ]);
      expect(smtp.messages[0]?.rcptTo).toEqual(TEAM);
      for (const part of [mail?.text ?? "", typeof mail?.html === "string" ? mail.html : ""]) {
        for (const piece of [
          "Jane Doe",
          "87 (threshold 70)",
          "Seniority: c_level (+25)",
          "Net worth: $5,000,000 (+20)",
          "Order value: $1,250.00 (+15)",
          "+27 from 3 more signals",
          "#1001 · $1,250.00",
          "Austin, TX, US",
          `${BASE_URL}/customers/${vip.customerId}`,
        ]) {
          expect(part).toContain(piece);
        }
      }
      const alert = await list();
      expect(alert).toMatchObject({
        alertId,
        channel: "email",
        status: "delivered",
        target: TEAM.join(", "),
      });
      expect(alert?.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([["delivered", 250]]);
    });

    it("retries an SMTP 4xx and sends the same Message-ID again", async () => {
      const { alertId, messageId, list } = await queuedAlert();
      const task = deliverEmailAlert(delivery);
      smtp.failNext(451);
      expect(await runAlertJob(deps, task, alertId, 1)).toMatchObject({
        kind: "retry",
        error: expect.stringMatching(/^451/),
      });
      expect(await runAlertJob(deps, task, alertId, 2)).toEqual({ kind: "done" });
      expect(smtp.received.map((m) => [m.replyCode, m.parsed.messageId])).toEqual([
        [451, messageId],
        [250, messageId],
      ]);
      expect(smtp.messages).toHaveLength(1);
      const alert = await list();
      expect(alert?.status).toBe("delivered");
      expect(alert?.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([
        ["retry", 451],
        ["delivered", 250],
      ]);
    });

    it("records an SMTP 5xx as a permanent failure and does not retry", async () => {
      const { alertId, list } = await queuedAlert();
      smtp.failNext(550);
      const outcome = await runAlertJob(deps, deliverEmailAlert(delivery), alertId);
      expect(outcome).toMatchObject({ kind: "fail", error: expect.stringMatching(/^550/) });
      expect(smtp.messages).toHaveLength(0);
      const alert = await list();
      expect(alert).toMatchObject({ status: "failed", lastError: expect.stringMatching(/^550/) });
      expect(alert?.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([["failed", 550]]);
    });

    it("without SMTP_URL an alert waits, spends no attempt, and is sent by a process that has it", async () => {
      const noSmtp = createAlertDelivery({ alerts: { ...deps.config.alerts, smtpUrl: null } });
      expect(noSmtp.emailEnabled).toBe(false);
      const { alertId, list } = await queuedAlert();
      for (let i = 0; i < 3; i++) {
        expect(await runAlertJob(deps, deliverEmailAlert(noSmtp), alertId)).toEqual({
          kind: "wait",
          reason: WAITING_REASON,
          delayMs: EMAIL_WAIT_RECHECK_MS,
        });
      }
      expect(await list()).toMatchObject({
        status: "waiting",
        lastError: WAITING_REASON,
        attempts: [],
      });
      expect(smtp.received).toHaveLength(0);
      expect(await runAlertJob(deps, deliverEmailAlert(delivery), alertId)).toEqual({
        kind: "done",
      });
      expect(await list()).toMatchObject({ status: "delivered", lastError: null });
      expect(smtp.messages).toHaveLength(1);
      await noSmtp.close();
    });

    it("an alert that waited 7 days for SMTP fails, saying why", async () => {
      const noSmtp = createAlertDelivery({ alerts: { ...deps.config.alerts, smtpUrl: null } });
      const { alertId, list } = await queuedAlert();
      const later = { ...deps, clock: { now: () => Date.now() + EMAIL_WAIT_LIMIT_MS } };
      expect(await runAlertJob(later, deliverEmailAlert(noSmtp), alertId)).toEqual({
        kind: "fail",
        error: GAVE_UP_WAITING,
      });
      expect(await list()).toMatchObject({ status: "failed", lastError: GAVE_UP_WAITING });
      expect((await list())?.attempts.map((a) => a.outcome)).toEqual(["failed"]);
      expect(smtp.received).toHaveLength(0);
      await noSmtp.close();
    });
  });
}
