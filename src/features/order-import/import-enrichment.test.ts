/**
 * An imported history on a running server, end to end: the worker enriches the imported
 * customers at backfill priority (a live order that arrives meanwhile is enriched first), scores
 * them like any other, and raises no VIP alert for them unless the import asked for alerts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { loadConfig } from "../../config.js";
import { updateAccount } from "../accounts/update-account.js";
import { createAlertDelivery } from "../alerts/alert-deps.js";
import { importOrders } from "./import-orders.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-import-enrich-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A plain export of `n` customers who score as VIPs with the fakes' default match. */
function vipFile(name: string, n: number): string {
  const file = path.join(dir, name);
  const rows = Array.from(
    { length: n },
    (_, i) =>
      `${name}-${i}@navy-systems.com,Grace,Hopper,,Atherton,CA,94027,US,${name}-${i},#${i},1250.00,USD,2024-02-0${1 + (i % 9)}`,
  );
  fs.writeFileSync(
    file,
    [
      "email,first_name,last_name,phone,city,state,zipcode,country,order_id,order_number,total,currency,ordered_at",
      ...rows,
    ].join("\n"),
  );
  return file;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `an imported history on a running server (${engine.name})`,
    () => {
      let fakes: FakeProviders;
      let chat: FakeChatServer;
      let app: TestApp;
      let account: TestAccount;

      beforeAll(async () => {
        [fakes, chat] = await Promise.all([
          startFakeProviders({ defaultBehaviour: { kind: "match", delay: 250 } }),
          startChatServer(),
        ]);
        const env = {
          ...fakes.env,
          GRAVATAR_RATE_LIMIT_PER_MIN: "60000",
          WEBHOOKS_ALLOW_PRIVATE: "true",
          WORKER_CONCURRENCY: "2",
        };
        const alerts = createAlertDelivery(loadConfig(env), { pacingIntervalMs: 0 });
        app = await startTestApp(engine, { worker: true, env, alerts });
        account = await app.createAccount({ name: "Acme Store" });
        await updateAccount(app.deps.db.kysely, account.accountId, {
          channels: { slack_webhook_url: chat.webhookUrl },
        });
      });
      afterAll(async () => {
        await app?.close();
        await Promise.all([fakes?.close(), chat?.close()]);
      });

      const customers = (emailLike: string) =>
        app.deps.db.kysely
          .selectFrom("customers")
          .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
          .leftJoin("alerts", "alerts.customer_id", "customers.id")
          .select([
            "customers.id",
            "customers.enrichment_status",
            "enrichments.vip",
            "alerts.id as alert_id",
          ])
          .where("customers.store_id", "=", account.storeId)
          .where("customers.email_normalized", "like", emailLike)
          .execute();

      it("enriches a live order before a queued backfill; imported VIPs are scored but not alerted", async () => {
        const history = vipFile(`history-${engine.name}`, 24);
        const summary = await importOrders(app.deps, {
          accountId: account.accountId,
          file: history,
          apply: true,
          alerts: false,
        });
        expect(summary).toMatchObject({ orders: 24, newCustomers: 24, errors: 0 });

        const live = await app.submit(account.apiKey, {
          email: `live-${engine.name}@navy-systems.com`,
          firstName: "Ada",
          lastName: "Lovelace",
          address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
          order: { id: "live-1", number: "#live-1", total: "1250.00", currency: "USD" },
        });
        expect(live.status).toBe(200);
        await waitFor(
          "the live customer enriched",
          async () => (await customers("live-%"))[0]?.enrichment_status === "enriched",
          20_000,
        );
        // Two workers, each backfill enrichment ≥ 250 ms: 24 take ≥ 3 s. The live one went first.
        const backfillDone = (await customers("history-%")).filter(
          (c) => c.enrichment_status === "enriched",
        ).length;
        expect(backfillDone).toBeLessThan(12);

        await waitFor(
          "the history enriched",
          async () =>
            (await customers("history-%")).every((c) => c.enrichment_status === "enriched"),
          30_000,
        );
        const imported = await customers("history-%");
        expect(imported).toHaveLength(24);
        expect(imported.every((c) => c.vip === 1 && c.alert_id === null)).toBe(true);
        const [liveCustomer] = await customers("live-%");
        expect(liveCustomer?.vip).toBe(1);
        expect(liveCustomer?.alert_id).not.toBeNull();
        await waitFor("the live VIP's chat message", async () =>
          chat.requests.some((r) => JSON.stringify(r.body).includes(liveCustomer?.id ?? "?")),
        );
        expect(chat.requests.some((r) => JSON.stringify(r.body).includes("Grace Hopper"))).toBe(
          false,
        );
      });

      it("with alerts on, imported VIPs are alerted", async () => {
        const file = vipFile(`alerted-${engine.name}`, 2);
        await importOrders(app.deps, {
          accountId: account.accountId,
          file,
          apply: true,
          alerts: true,
        });
        await waitFor(
          "both alerted",
          async () => {
            const rows = await customers("alerted-%");
            return rows.length === 2 && rows.every((c) => c.alert_id !== null);
          },
          30_000,
        );
        expect((await customers("alerted-%")).every((c) => c.vip === 1)).toBe(true);
      });
    },
  );
}
