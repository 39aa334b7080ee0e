/** The alert list, on both engines: newest first, attempts nested oldest first, one account only. */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { AppDeps } from "../../app-deps.js";
import { writeChannelValues } from "./channels/channel-registry.js";
import { enqueueVipAlerts } from "./enqueue-vip-alerts.js";
import { listAlerts } from "./list-alerts.js";
import { recordDeliveryAttempt } from "./record-delivery-attempt.js";

const T0 = Date.UTC(2025, 2, 1, 9);
const WEBHOOK = "https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`listAlerts on ${engine.name}`, () => {
    let testDeps: TestDeps;
    let deps: AppDeps;
    beforeAll(async () => {
      testDeps = await startTestDeps(engine);
      deps = testDeps.deps;
    });
    afterAll(async () => {
      await testDeps?.close();
    });

    it("lists an account's alerts newest first with their attempts, and nothing of others", async () => {
      const vip = await seedVip(deps, { webhookUrl: WEBHOOK });
      const other = await seedVip(deps, { webhookUrl: WEBHOOK });
      const db = deps.db.kysely;
      // The chat alert first (no e-mail yet), then, a minute later, the e-mail one (the webhook
      // removed, an address added).
      const [chat] = await db.transaction().execute((trx) => enqueueVipAlerts(trx, vip, T0));
      await writeChannelValues(
        db,
        vip.accountId,
        { slack_webhook_url: null, alert_emails: "team@acme.com" },
        null,
      );
      const [email] = await db
        .transaction()
        .execute((trx) => enqueueVipAlerts(trx, vip, T0 + 60_000));
      await db.transaction().execute((trx) => enqueueVipAlerts(trx, other, T0));
      const chatId = chat?.alertId as string;
      await recordDeliveryAttempt(db, chatId, {
        at: T0 + 1000,
        outcome: "retry",
        statusCode: 500,
        error: "500 server_error",
        durationMs: 12.4,
        target: null,
      });
      await recordDeliveryAttempt(db, chatId, {
        at: T0 + 6000,
        outcome: "delivered",
        statusCode: 200,
        error: null,
        durationMs: 30,
        target: null,
      });

      const list = await listAlerts(db, vip.accountId);
      expect(list.map((a) => [a.alertId, a.channel])).toEqual([
        [email?.alertId, "email"],
        [chatId, "chat"],
      ]);
      expect(list[1]).toEqual({
        alertId: chatId,
        customerId: vip.customerId,
        customerEmail: vip.email,
        channel: "chat",
        status: "delivered",
        target: "https://hooks.slack.com/…uvwx",
        score: 87,
        threshold: 70,
        createdAt: new Date(T0).toISOString(),
        deliveredAt: new Date(T0 + 6000).toISOString(),
        lastError: null,
        attempts: [
          {
            at: new Date(T0 + 1000).toISOString(),
            outcome: "retry",
            statusCode: 500,
            error: "500 server_error",
            durationMs: 12,
          },
          {
            at: new Date(T0 + 6000).toISOString(),
            outcome: "delivered",
            statusCode: 200,
            error: null,
            durationMs: 30,
          },
        ],
      });
      expect(list[0]?.attempts).toEqual([]);
      expect(await listAlerts(db, vip.accountId, { limit: 1 })).toHaveLength(1);
      expect((await listAlerts(db, other.accountId)).map((a) => a.customerId)).toEqual([
        other.customerId,
      ]);
    });
  });
}
