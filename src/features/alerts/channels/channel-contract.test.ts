/**
 * The contract every alert channel keeps, run for each registered channel (channel-registry.ts)
 * against its fake outside service and a real database, on both engines:
 * - a temporary failure is retried and the alert delivered once, every attempt in its log;
 * - erasing the customer removes the channel's alerts and their attempts, and no row left
 *   names the customer;
 * - a secret setting is never shown whole: not by `velvet account set`, Settings → Alerts, the
 *   process log, the alert's target and attempt log, or the audit trail.
 * A channel registered without its fake below is a compile error (`FAKES` is a Record).
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startChatServer } from "../../../../test/fakes/chat-server.js";
import { runAlertJob, seedVip } from "../../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startSmtpServer } from "../../../../test/support/smtp-server.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { createLogger } from "../../../main.js";
import { changeAlertSettings } from "../../accounts/change-alert-settings.js";
import { updateAccount } from "../../accounts/update-account.js";
import { userActor } from "../../audit/audit-actor.js";
import { eraseCustomer } from "../../privacy/erase-customer.js";
import { type AlertDelivery, createAlertDelivery } from "../alert-deps.js";
import { enqueueVipAlerts } from "../enqueue-vip-alerts.js";
import type { AlertChannelDefinition, ChannelValues } from "./alert-channel.js";
import { CHANNELS, type ChannelName, describeChannelSettings } from "./channel-registry.js";

/** A channel's outside service, faked as the real one answers. */
interface FakeOutside {
  env: Record<string, string>;
  /** What a person types into each of the channel's settings. */
  typed: Record<string, string>;
  /** The next send fails for a temporary reason (the service is down for a moment). */
  failNextTemporarily(): void;
  /** How many messages the service accepted. */
  accepted(): number;
  close(): Promise<void>;
}

const FAKES: Record<ChannelName, () => Promise<FakeOutside>> = {
  chat: async () => {
    // Slack answers 500 `server_error` when it is briefly down (test/fakes/chat-server.ts).
    const chat = await startChatServer();
    let refused = 0;
    return {
      env: { WEBHOOKS_ALLOW_PRIVATE: "true" },
      typed: { slack_webhook_url: chat.webhookUrl },
      failNextTemporarily: () => {
        refused += 1;
        chat.reply("server_error");
      },
      accepted: () => chat.requests.length - refused,
      close: () => chat.close(),
    };
  },
  email: async () => {
    // A mail server that is briefly unable answers 451 (RFC 5321, 4.2.1: transient).
    const smtp = await startSmtpServer();
    return {
      env: { SMTP_URL: smtp.url },
      typed: { alert_emails: "team@acme.com, ceo@acme.com" },
      failNextTemporarily: () => smtp.failNext(451),
      accepted: () => smtp.messages.length,
      close: () => smtp.close(),
    };
  },
};

function storedValues(channel: AlertChannelDefinition, typed: Record<string, string>) {
  const values: ChannelValues = {};
  for (const setting of channel.settings) {
    const checked = setting.check(typed[setting.key] ?? "", { allowPrivate: true });
    if (!checked.ok) throw new Error(`${channel.name}: ${checked.reason}`);
    values[setting.key] = checked.stored;
  }
  return values;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`the alert channel contract on ${engine.name}`, () => {
    let app: TestApp;
    let delivery: AlertDelivery;
    const fakes = new Map<ChannelName, FakeOutside>();
    const lines: string[] = [];
    beforeAll(async () => {
      for (const channel of CHANNELS) fakes.set(channel.name, await FAKES[channel.name]());
      const env = Object.assign({}, ...[...fakes.values()].map((f) => f.env));
      const capture = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      app = await startTestApp(engine, {
        env: { ...env, PUBLIC_BASE_URL: "https://velvet.example.com" },
        log: createLogger({ logLevel: "trace" }, capture),
      });
      delivery = createAlertDelivery(app.deps.config, { pacingIntervalMs: 0 });
    });
    afterAll(async () => {
      await delivery?.close();
      await app?.close();
      for (const fake of fakes.values()) await fake.close();
    });

    for (const channel of CHANNELS as readonly AlertChannelDefinition[]) {
      const fake = () => fakes.get(channel.name as ChannelName) as FakeOutside;

      /** A VIP whose account has only this channel set up, its alert queued. */
      async function queuedAlert() {
        const vip = await seedVip(app.deps, { webhookUrl: null, alertEmails: null });
        const values = storedValues(channel, fake().typed);
        await updateAccount(app.deps.db.kysely, vip.accountId, { channels: values });
        const queued = await app.deps.db.kysely
          .transaction()
          .execute((trx) => enqueueVipAlerts(trx, vip, app.deps.clock.now()));
        expect(queued.map((q) => q.channel)).toEqual([channel.name]);
        return { vip, values, alertId: queued[0]?.alertId as string };
      }

      describe(`the ${channel.name} channel`, () => {
        it("retries a temporary failure, delivers once and logs every attempt", async () => {
          const { alertId, values } = await queuedAlert();
          const task = channel.deliveryTask(delivery);
          const before = fake().accepted();
          fake().failNextTemporarily();
          expect((await runAlertJob(app.deps, task, alertId, 1)).kind).toBe("retry");
          expect(await runAlertJob(app.deps, task, alertId, 2)).toEqual({ kind: "done" });
          // At least once: a job run again sends nothing more.
          expect(await runAlertJob(app.deps, task, alertId, 3)).toEqual({ kind: "done" });
          expect(fake().accepted() - before).toBe(1);
          const attempts = await app.deps.db.kysely
            .selectFrom("alert_attempts")
            .select(["outcome", "error"])
            .where("alert_id", "=", alertId)
            .orderBy("attempted_at")
            .orderBy("id")
            .execute();
          expect(attempts.map((a) => a.outcome)).toEqual(["retry", "delivered"]);
          expect(attempts[0]?.error).not.toBeNull();
          const alert = await app.deps.db.kysely
            .selectFrom("alerts")
            .select(["status", "attempts", "target"])
            .where("id", "=", alertId)
            .executeTakeFirstOrThrow();
          expect(alert).toEqual({
            status: "delivered",
            attempts: 2,
            target: channel.target(values),
          });
        });

        it("leaves nothing of the customer once they are erased", async () => {
          const { vip, alertId } = await queuedAlert();
          fake().failNextTemporarily();
          await runAlertJob(app.deps, channel.deliveryTask(delivery), alertId, 1);
          const erased = await eraseCustomer(app.deps, {
            accountId: vip.accountId,
            lookup: { customerId: vip.customerId },
            actor: userActor("owner@acme.com"),
          });
          expect(erased?.erased).toMatchObject({ alerts: 1, deliveryAttempts: 1 });
          const db = app.deps.db.kysely;
          expect(
            await db.selectFrom("alerts").where("id", "=", alertId).selectAll().execute(),
          ).toEqual([]);
          const left = JSON.stringify([
            await db
              .selectFrom("alert_attempts")
              .selectAll()
              .where("alert_id", "=", alertId)
              .execute(),
            await db
              .selectFrom("alerts")
              .selectAll()
              .where("account_id", "=", vip.accountId)
              .execute(),
            await db
              .selectFrom("jobs")
              .selectAll()
              .where("job_key", "=", `alert:${alertId}`)
              .execute(),
            await db
              .selectFrom("alert_channel_outages")
              .selectAll()
              .where("account_id", "=", vip.accountId)
              .execute(),
          ]);
          expect(left).not.toContain(vip.email);
          expect(left).not.toContain("Jane");
        });

        for (const setting of channel.settings.filter((s) => s.secret)) {
          it(`never shows ${setting.key} whole: CLI, page, log, alert log or audit`, async () => {
            const secret = storedValues(channel, fake().typed)[setting.key] as string;
            const masked = setting.show(secret) as string;
            expect(masked).not.toContain(secret);

            const { browser, accountId } = await signInNewAccount(app, {
              storeName: `Secret ${Date.now()}`,
            });
            await changeAlertSettings(app.deps, {
              accountId,
              settings: { channels: { [setting.key]: secret } },
              actor: userActor("owner@acme.com"),
            });
            const cli = await describeChannelSettings(
              app.deps.db.kysely,
              accountId,
              app.deps.config.storeSync.tokenKey,
            );
            expect(cli).toContain(`${setting.cliLabel}: ${masked}`);
            expect(cli.join("\n")).not.toContain(secret);
            const { html } = await browser.page("/settings/alerts");
            expect(html).not.toContain(secret);
            const audit = await app.deps.db.kysely
              .selectFrom("audit_events")
              .select("details")
              .where("account_id", "=", accountId)
              .execute();
            expect(audit.length).toBeGreaterThan(0);
            expect(JSON.stringify(audit)).not.toContain(secret);

            // A failing then working delivery logs its target: masked.
            const { alertId } = await queuedAlert();
            fake().failNextTemporarily();
            await runAlertJob(app.deps, channel.deliveryTask(delivery), alertId, 1);
            await runAlertJob(app.deps, channel.deliveryTask(delivery), alertId, 2);
            const rows = JSON.stringify([
              await app.deps.db.kysely
                .selectFrom("alerts")
                .selectAll()
                .where("id", "=", alertId)
                .execute(),
              await app.deps.db.kysely
                .selectFrom("alert_attempts")
                .selectAll()
                .where("alert_id", "=", alertId)
                .execute(),
            ]);
            expect(rows).toContain(masked);
            expect(rows).not.toContain(secret);
            expect(lines.join("")).toContain(masked);
            expect(lines.join("")).not.toContain(secret);
          });
        }
      });
    }
  });
}
