/**
 * The deliver-chat-alert task against the fake Slack server and a real database, on both
 * engines: one message with the right content, once (even when the job runs again); temporary
 * failures retried and recorded until delivered; permanent failures recorded and not retried;
 * the SSRF guard refusing a webhook that points inside.
 */

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { runAlertJob, type SeedVipOptions, seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { AppDeps } from "../../app-deps.js";
import { newId } from "../../lib/ids.js";
import { updateAccount } from "../accounts/update-account.js";
import { type AlertDelivery, createAlertDelivery } from "./alert-deps.js";
import { ALERT_RETRY_WINDOW_MS } from "./alert-job.js";
import type { ChatMessage } from "./build-chat-message.js";
import { writeChannelValues } from "./channels/channel-registry.js";
import { deliverChatAlert } from "./channels/chat/chat-channel.js";
import { enqueueVipAlerts } from "./enqueue-vip-alerts.js";
import { listAlerts } from "./list-alerts.js";
import { requeueFailedAlert } from "./requeue-failed-alert.js";

const BASE_URL = "https://velvet.example.com";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`deliver-chat-alert on ${engine.name}`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    let chat: FakeChatServer;
    let delivery: AlertDelivery;
    beforeAll(async () => {
      chat = await startChatServer();
      testDeps = await startTestDeps(engine, {
        env: { WEBHOOKS_ALLOW_PRIVATE: "true", PUBLIC_BASE_URL: BASE_URL },
      });
      deps = testDeps.deps;
    });
    afterAll(async () => {
      await testDeps?.close();
      await chat?.close();
    });
    beforeEach(() => {
      chat.requests.length = 0;
      delivery = createAlertDelivery(deps.config, { pacingIntervalMs: 0 });
      return () => delivery.close();
    });

    /** A VIP with its chat alert queued, as the enrichment's transaction leaves it. */
    async function queuedAlert(options: SeedVipOptions = {}) {
      const vip = await seedVip(deps, { webhookUrl: chat.webhookUrl, ...options });
      const queued = await deps.db.kysely
        .transaction()
        .execute((trx) => enqueueVipAlerts(trx, vip, deps.clock.now()));
      const alertId = queued.find((q) => q.channel === "chat")?.alertId as string;
      const list = async () => (await listAlerts(deps.db.kysely, vip.accountId))[0];
      return { vip, alertId, list };
    }

    it("posts one message with name, score, reasons, order, location and link, once", async () => {
      const { vip, alertId, list } = await queuedAlert();
      const task = deliverChatAlert(delivery);
      expect(await runAlertJob(deps, task, alertId)).toEqual({ kind: "done" });
      // At least once: the job may run again; nothing is sent twice.
      expect(await runAlertJob(deps, task, alertId, 2)).toEqual({ kind: "done" });
      expect(chat.requests).toHaveLength(1);
      const body = chat.requests[0]?.body as ChatMessage;
      expect(body.text).toContain("VIP customer: *Jane Doe*, score 87 (threshold 70)");
      expect(body.text).toContain("Order #1001 · $1,250.00");
      expect(body.text).toContain(`<${BASE_URL}/customers/${vip.customerId}|Open in Velvet>`);
      const blocks = JSON.stringify(body.blocks);
      for (const part of [
        "VIP customer: Jane Doe",
        "Seniority: c_level (+25)",
        "Net worth: $5,000,000 (+20)",
        "Order value: $1,250.00 (+15)",
        // The rest of the score, so the reasons add up to 87.
        "+27 from 3 more signals",
        "Austin, TX, US",
        vip.email,
      ]) {
        expect(blocks).toContain(part);
      }
      expect(blocks).not.toContain("Orders so far"); // zero points: not a reason
      const alert = await list();
      expect(alert).toMatchObject({
        alertId,
        channel: "chat",
        status: "delivered",
        customerEmail: vip.email,
      });
      expect(alert?.deliveredAt).not.toBeNull();
      expect(alert?.attempts).toEqual([
        {
          at: expect.any(String),
          outcome: "delivered",
          statusCode: 200,
          error: null,
          durationMs: expect.any(Number),
        },
      ]);
    });

    it("retries a 500, waits out a 429 (its Retry-After, no attempt spent) and then delivers once", async () => {
      const { alertId, list } = await queuedAlert();
      const task = deliverChatAlert(delivery);
      chat.reply("server_error", { rateLimited: 1 });
      expect(await runAlertJob(deps, task, alertId, 1)).toEqual({
        kind: "retry",
        error: "500 server_error",
      });
      expect(await runAlertJob(deps, task, alertId, 2)).toEqual({
        kind: "wait",
        reason: "429 rate_limited",
        delayMs: 1000,
      });
      expect(await runAlertJob(deps, task, alertId, 3)).toEqual({ kind: "done" });
      expect(chat.requests).toHaveLength(3);
      // The third request honoured the 429's one second.
      expect((chat.requests[2]?.at ?? 0) - (chat.requests[1]?.at ?? 0)).toBeGreaterThanOrEqual(950);
      const alert = await list();
      expect(alert?.status).toBe("delivered");
      expect(alert?.attempts.map((a) => [a.outcome, a.statusCode, a.error])).toEqual([
        ["retry", 500, "500 server_error"],
        ["retry", 429, "429 rate_limited"],
        ["delivered", 200, null],
      ]);
      const row = await deps.db.kysely
        .selectFrom("alerts")
        .select(["attempts", "last_error"])
        .where("id", "=", alertId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ attempts: 3, last_error: null });
    });

    it("records a permanent failure (404 channel_not_found) and does not retry it", async () => {
      const { alertId, list } = await queuedAlert();
      chat.reply("channel_not_found");
      const outcome = await runAlertJob(deps, deliverChatAlert(delivery), alertId);
      expect(outcome).toEqual({ kind: "fail", error: "404 channel_not_found" });
      expect(chat.requests).toHaveLength(1);
      const alert = await list();
      expect(alert).toMatchObject({ status: "failed", lastError: "404 channel_not_found" });
      expect(alert?.attempts.map((a) => [a.outcome, a.statusCode])).toEqual([["failed", 404]]);
    });

    it("marks the alert failed when the last attempt still fails", async () => {
      const { alertId, list } = await queuedAlert();
      chat.reply("server_error");
      const error = "500 server_error (given up after 10 attempts)";
      expect(await runAlertJob(deps, deliverChatAlert(delivery), alertId, 10, 10)).toEqual({
        kind: "fail",
        error,
      });
      const alert = await list();
      expect(alert).toMatchObject({ status: "failed", lastError: error });
      expect(alert?.attempts.map((a) => a.outcome)).toEqual(["failed"]);
    });

    it("keeps retrying until 24 hours after the first attempt, then gives up", async () => {
      const { alertId, list } = await queuedAlert();
      const first = deps.clock.now() - ALERT_RETRY_WINDOW_MS + 60_000;
      await deps.db.kysely
        .insertInto("alert_attempts")
        .values({
          id: newId(first),
          alert_id: alertId,
          attempted_at: first,
          outcome: "retry",
          status_code: 500,
          error: "500 server_error",
          duration_ms: 5,
        })
        .execute();
      chat.reply("server_error", "server_error", "server_error");
      const task = deliverChatAlert(delivery);
      // 23 h 59 min after the first attempt, attempt 150 of 500: still a retry.
      expect(await runAlertJob(deps, task, alertId, 150, 500)).toMatchObject({ kind: "retry" });
      await deps.db.kysely
        .updateTable("alert_attempts")
        .set({ attempted_at: first - 60_000 })
        .where("alert_id", "=", alertId)
        .where("attempted_at", "=", first)
        .execute();
      const error =
        "500 server_error (given up: not delivered within 24 hours of the first attempt)";
      expect(await runAlertJob(deps, task, alertId, 151, 500)).toEqual({ kind: "fail", error });
      expect(await list()).toMatchObject({ status: "failed", lastError: error });
      // Retried by hand (`velvet jobs retry`): a new window from its next attempt.
      await deps.db.kysely.transaction().execute((trx) => requeueFailedAlert(trx, alertId));
      expect(await runAlertJob(deps, task, alertId, 1, 500)).toEqual({
        kind: "retry",
        error: "500 server_error",
      });
    });

    it("fails when the webhook was removed after the alert was queued", async () => {
      const { vip, alertId, list } = await queuedAlert();
      await writeChannelValues(deps.db.kysely, vip.accountId, { slack_webhook_url: null }, null);
      expect(await runAlertJob(deps, deliverChatAlert(delivery), alertId)).toMatchObject({
        kind: "fail",
      });
      expect(chat.requests).toHaveLength(0);
      expect((await list())?.lastError).toBe(
        "the chat channel is no longer configured for this account",
      );
    });

    it("names the tier the alert's score reaches among the account's tiers, beside the score", async () => {
      const { vip, alertId } = await queuedAlert();
      await updateAccount(deps.db.kysely, vip.accountId, {
        tiers: [
          { name: "Gold", floor: 90 },
          { name: "Silver", floor: 80 },
        ],
      });
      await runAlertJob(deps, deliverChatAlert(delivery), alertId);
      const body = chat.requests[0]?.body as ChatMessage;
      expect(body.text).toContain("VIP customer: *Jane Doe*, score 87 · Silver (threshold 70)");
    });

    it("takes the location from the enriched profile when the customer gave none", async () => {
      const { alertId } = await queuedAlert({
        address: { city: null, state: null, country: null },
        profile: { location: "Lisbon, Portugal" },
        orders: [],
      });
      await runAlertJob(deps, deliverChatAlert(delivery), alertId);
      const blocks = JSON.stringify((chat.requests[0]?.body as ChatMessage | undefined)?.blocks);
      expect(blocks).toContain("Lisbon, Portugal");
      expect(blocks).toContain("*Order*\\nnone");
    });

    it("refuses a webhook that resolves to this machine unless private webhooks are allowed", async () => {
      const alerts = { ...deps.config.alerts, allowPrivateWebhooks: false };
      const strictDeps: AppDeps = { ...deps, config: { ...deps.config, alerts } };
      // Every name resolves to loopback, as a rebound DNS record would when the alert is sent.
      const strict = createAlertDelivery(strictDeps.config, {
        pacingIntervalMs: 0,
        resolve: async () => [{ address: "127.0.0.1", family: 4 }],
      });
      const task = deliverChatAlert(strict);
      const rebound = await queuedAlert({
        webhookUrl: "https://chat.example.com/services/T/B/secret",
      });
      expect(await runAlertJob(strictDeps, task, rebound.alertId)).toEqual({
        kind: "fail",
        error:
          "refused to connect: chat.example.com resolves to 127.0.0.1, which is not a public address",
      });
      expect((await rebound.list())?.target).toBe("https://chat.example.com/…cret");
      // Written straight to the database, past the save-time check: refused at send time too.
      const local = await queuedAlert({
        webhookUrl: `https://localhost:${chat.port}/services/T/B/secret`,
      });
      expect(await runAlertJob(strictDeps, task, local.alertId)).toMatchObject({
        kind: "fail",
        error: expect.stringMatching(/points to this machine/),
      });
      const plain = await queuedAlert({ webhookUrl: chat.webhookUrl });
      expect(await runAlertJob(strictDeps, task, plain.alertId)).toEqual({
        kind: "fail",
        error: expect.stringMatching(/must use https/),
      });
      expect(chat.requests).toHaveLength(0);
      await strict.close();
      // The same loopback webhook, allowed: delivered to the fake server.
      expect(await runAlertJob(deps, deliverChatAlert(delivery), plain.alertId, 2)).toEqual({
        kind: "done",
      });
      expect(chat.requests).toHaveLength(1);
    });
  });
}
