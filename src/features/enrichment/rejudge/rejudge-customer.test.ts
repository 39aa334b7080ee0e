/**
 * rejudgeCustomer on both engines, called directly on a server without a worker (so nothing
 * runs behind the test's back): a customer whose enrichment is not finished is left alone; the
 * stored provider lines keep counting while the offline lines follow the history; nothing is
 * written when nothing changed; a promotion stores its moment and reason and queues one alert
 * per channel and `customer.vip`; a demotion queues `customer.not_vip` and no alert; going back
 * over the line queues `customer.vip` again and no second alert; the customer page shows when
 * and why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { STORE_SYNC_ENV } from "../../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { updateAccount } from "../../accounts/update-account.js";
import { systemActor } from "../../audit/audit-actor.js";
import { addDestination } from "../../destinations/add-destination.js";
import { createStoreWindows } from "../offline/store-order-window.js";
import { rejudgeCustomer } from "./rejudge-customer.js";

const MANAGER_LINE = { source: "profile", signal: "seniority", value: "Manager", points: 40 };

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`rejudgeCustomer (${engine.name})`, () => {
    let app: TestApp;
    let browser: HttpBrowser;
    let apiKey: string;
    let accountId: string;
    let customerId: string;
    const windows = createStoreWindows();
    const options = { historical: false, requestId: null };
    const email = `rita.regular.${engine.name}@gmail.com`;

    beforeAll(async () => {
      app = await startTestApp(engine, {
        env: { ...STORE_SYNC_ENV, WEBHOOKS_ALLOW_PRIVATE: "true" },
      });
      ({ browser, apiKey, accountId } = await signInNewAccount(app));
      await updateAccount(app.deps.db.kysely, accountId, {
        channels: { slack_webhook_url: "https://hooks.slack.com/services/T000/B000/XXXXXXXX" },
      });
      await addDestination(app.deps, {
        accountId,
        kind: "webhook",
        fields: { url: "http://127.0.0.1:9/velvet" },
        actor: systemActor("test"),
      });
    }, 30_000);
    afterAll(() => app?.close());

    const db = () => app.deps.db.kysely;
    const rejudge = () => rejudgeCustomer(app.deps, windows, customerId, options);
    const submit = async (id: string) => {
      const res = await app.submit(apiKey, {
        email,
        firstName: "Rita",
        lastName: "Regular",
        order: { id, total: "200.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { customerId: string; enrichmentStatus: string };
    };
    const enrichment = () =>
      db()
        .selectFrom("enrichments")
        .selectAll()
        .where("customer_id", "=", customerId)
        .executeTakeFirstOrThrow();
    const alerts = () =>
      db().selectFrom("alerts").select("channel").where("customer_id", "=", customerId).execute();
    const deliveries = async (event: string) =>
      (
        await db()
          .selectFrom("destination_deliveries")
          .select(["event", "body"])
          .where("customer_id", "=", customerId)
          .where("event", "=", event as "customer.vip")
          .execute()
      ).map((d) => JSON.parse(d.body ?? "{}") as { data: Record<string, unknown> });
    const setCounts = (ids: string[], counts: number) =>
      db()
        .updateTable("orders")
        .set({ counts, status: counts === 1 ? "processing" : "cancelled" })
        .where("customer_id", "=", customerId)
        .where("external_order_id", "in", ids)
        .execute();

    it("leaves a customer whose enrichment is not finished alone", async () => {
      const first = await submit("r-0");
      expect(first.enrichmentStatus).toBe("queued");
      customerId = first.customerId;
      expect(await rejudge()).toEqual({ kind: "skipped", reason: "not enriched" });
    });

    it("keeps the stored provider lines, recomputes the offline ones, and writes nothing when nothing changed", async () => {
      // As the enrichment leaves it: a stored provider line (asked once, never again).
      const now = app.deps.clock.now();
      await db()
        .updateTable("customers")
        .set({ enrichment_status: "enriched" })
        .where("id", "=", customerId)
        .execute();
      await db()
        .insertInto("enrichments")
        .values({
          customer_id: customerId,
          score: 40,
          vip: 0,
          threshold: 70,
          signals: JSON.stringify([MANAGER_LINE]),
          enriched_at: now - 1_000,
          updated_at: now - 1_000,
        })
        .execute();
      const rescored = await rejudge();
      expect(rescored.kind).toBe("rescored");
      const stored = await enrichment();
      const signals = JSON.parse(stored.signals) as Array<{ signal: string; points: number }>;
      expect(signals[0]).toEqual(MANAGER_LINE);
      expect(signals.map((s) => s.signal)).toContain("lifetime_spend");
      expect(stored.score).toBe(signals.reduce((sum, s) => sum + s.points, 0));
      expect(stored.vip).toBe(0);
      expect(stored.rejudged_at).not.toBeNull();
      expect(await rejudge()).toEqual({ kind: "unchanged" });
      expect((await enrichment()).updated_at).toBe(stored.updated_at);
    });

    it("promotes a regular whose orders add up: one alert per channel, customer.vip once", async () => {
      for (let i = 1; i <= 12; i++)
        expect((await submit(`r-${i}`)).enrichmentStatus).toBe("existing");
      const outcome = await rejudge();
      expect(outcome).toMatchObject({
        kind: "promoted",
        reason: "now a VIP: $2,600.00 over 13 orders",
      });
      const stored = await enrichment();
      expect(stored.vip).toBe(1);
      expect(stored.vip_since).toBe(stored.vip_changed_at);
      expect(stored.vip_change_reason).toBe("now a VIP: $2,600.00 over 13 orders");
      expect(JSON.parse(stored.signals)).toContainEqual(MANAGER_LINE);
      expect(await alerts()).toEqual([{ channel: "chat" }]);
      const vip = await deliveries("customer.vip");
      expect(vip).toHaveLength(1);
      expect(vip[0]?.data).toMatchObject({
        vip: true,
        change: { kind: "promoted", reason: "now a VIP: $2,600.00 over 13 orders" },
      });

      const { html } = await browser.page(`/customers/${customerId}`);
      expect(html).toContain("<dt>VIP since</dt>");
      expect(html).toContain("<dt>Became a VIP</dt>");
      expect(html).toContain("now a VIP: $2,600.00 over 13 orders");
      expect(html).toContain("$2,600.00 over 13 orders");
    });

    it("demotes when cancellations take the spend back under the line: machines told, nobody alerted", async () => {
      const cancelled = Array.from({ length: 10 }, (_, i) => `r-${i + 3}`);
      await setCounts(cancelled, 0);
      const outcome = await rejudge();
      expect(outcome.kind).toBe("demoted");
      const stored = await enrichment();
      expect(stored.vip).toBe(0);
      expect(stored.vip_since).toBeNull();
      expect(stored.vip_change_reason).toMatch(
        /^no longer a VIP: \$600.00 over 3 orders \(score \d+, threshold 70\)$/,
      );
      expect(await alerts()).toHaveLength(1);
      const lost = await deliveries("customer.not_vip");
      expect(lost).toHaveLength(1);
      expect(lost[0]?.data).toMatchObject({ vip: false, change: { kind: "demoted" } });
      const { html } = await browser.page(`/customers/${customerId}`);
      expect(html).toContain("<dt>Stopped being a VIP</dt>");
      expect(html).not.toContain("<dt>VIP since</dt>");

      // Back over the line on the same orders: machines told again, people not.
      await setCounts(cancelled, 1);
      expect((await rejudge()).kind).toBe("promoted");
      expect(await alerts()).toHaveLength(1);
      expect(await deliveries("customer.vip")).toHaveLength(2);
      expect(await deliveries("customer.enriched")).toHaveLength(3);
    });
  });
}
