/**
 * Metrics end to end on both engines: the real app and worker record into a real prom-client
 * registry, served on its own listener (never on the public port), and a scrape shows HTTP
 * requests by route and status, submissions by enrichmentStatus, the queue by task and state
 * with the oldest due job's age, provider answers, alert deliveries, circuits and (SQLite) the
 * WAL size.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeChatServer, startChatServer } from "../../../test/fakes/chat-server.js";
import { runAlertJob, seedVip } from "../../../test/support/alert-fixtures.js";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { validBody } from "../../../test/support/orders.js";
import type { AppDeps } from "../../app-deps.js";
import { loadConfig } from "../../config.js";
import { type RunningServer, startServer } from "../../http/server.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { createWorker } from "../../jobs/worker.js";
import { buildDeps, closeDeps } from "../../main.js";
import { allTasks } from "../../tasks.js";
import { createAccount } from "../accounts/create-account.js";
import { createAlertDelivery } from "../alerts/alert-deps.js";
import { deliverChatAlert } from "../alerts/deliver-chat-alert.js";
import { enqueueVipAlerts } from "../alerts/enqueue-vip-alerts.js";
import { SCRIPT, STYLESHEET } from "../dashboard/assets/asset-routes.js";
import type { EnrichmentProvider } from "../enrichment/providers/provider.js";
import { createPromMetrics, RELEASE } from "./create-prom-metrics.js";
import { type MetricsServer, startMetricsServer } from "./metrics-server.js";

/** The value of one sample in a Prometheus text exposition, or null when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const wanted = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (wanted) return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return null;
}

const matchingPdl: EnrichmentProvider = {
  name: "pdl",
  lookup: async () => ({ kind: "matched", provider: "pdl", httpStatus: 200, profile: {}, raw: {} }),
};

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`metrics on ${engine.name}`, () => {
    let database: TestDatabase;
    let deps: AppDeps;
    let server: RunningServer;
    let metricsServer: MetricsServer;
    let chat: FakeChatServer;
    const scrape = async () => {
      const res = await fetch(`${metricsServer.url}/metrics`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
      return res.text();
    };

    beforeAll(async () => {
      chat = await startChatServer();
      database = await engine.create();
      const config = {
        ...loadConfig({ LOG_LEVEL: "silent", WEBHOOKS_ALLOW_PRIVATE: "true" }),
        database: database.target,
      };
      deps = await buildDeps({
        config,
        log: pino({ level: "silent" }),
        metrics: true,
        providers: [matchingPdl],
        alerts: createAlertDelivery(config, { pacingIntervalMs: 0 }),
      });
      server = await startServer(deps, { port: 0, host: "127.0.0.1" });
      metricsServer = await startMetricsServer(
        deps.metrics,
        { host: "127.0.0.1", port: 0 },
        deps.log,
      );
    });
    afterAll(async () => {
      await metricsServer?.close();
      await server?.close();
      if (deps) await closeDeps(deps);
      await database?.drop();
      await chat?.close();
    });

    it("serves metrics only on the private listener", async () => {
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${metricsServer.url}/other`)).status).toBe(404);
      const text = await scrape();
      expect(sample(text, "process_cpu_user_seconds_total")).not.toBeNull();
      expect(
        sample(text, "velvet_provider_circuit_state", { provider: "pdl", state: "closed" }),
      ).toBe(1);
      if (engine.name === "sqlite")
        expect(sample(text, "velvet_sqlite_wal_bytes")).toBeGreaterThan(0);
      else expect(sample(text, "velvet_sqlite_wal_bytes")).toBeNull();
      expect(
        sample(text, "velvet_build_info", {
          version: RELEASE,
          node_version: process.versions.node,
        }),
      ).toBe(1);
    });

    it("labels the hashed assets by one route pattern, the same whatever the build", async () => {
      for (const asset of [STYLESHEET, SCRIPT])
        expect((await fetch(`${server.url}${asset.path}`)).status).toBe(200);
      expect((await fetch(`${server.url}/assets/velvet.000000000000.css`)).status).toBe(404);
      const text = await scrape();
      const http = "velvet_http_request_duration_seconds_count";
      expect(sample(text, http, { method: "GET", route: "/assets/:file", status: "200" })).toBe(2);
      // No label anywhere carries a file's content hash.
      for (const asset of [STYLESHEET, SCRIPT]) {
        const hash = asset.path.split(".").at(-2) as string;
        expect(text).not.toContain(hash);
      }
    });

    it("counts requests, submissions, the queue, provider answers and alert deliveries", async () => {
      const now = deps.clock.now();
      const account = await createAccount(
        deps.db.kysely,
        { name: "Metrics", ownerEmail: `m-${now}@example.com`, passwordHash: null },
        now,
      );
      const submit = (body: unknown) =>
        fetch(`${server.url}/api/v1/orders`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${account.apiKey}`,
          },
          body: JSON.stringify(body),
        });
      const body = validBody();
      expect((await submit(body)).status).toBe(200);
      expect((await submit(body)).status).toBe(200);
      expect((await submit({})).status).toBe(400);
      await fetch(`${server.url}/api/v1/nope/${now}`);
      // One job that gave up, as a failed enrichment leaves it.
      await enqueueJob(
        deps.db.kysely,
        { task: "enrich-customer", payload: {}, jobKey: `x:${now}` },
        now - 5000,
      );
      await deps.db.kysely
        .updateTable("jobs")
        .set((eb) => ({ attempts: eb.ref("max_attempts"), last_error: "boom" }))
        .where("job_key", "=", `x:${now}`)
        .execute();

      // A connected store whose webhooks stopped delivering (store-webhooks).
      await deps.db.kysely
        .insertInto("store_connections")
        .values({
          id: `c-${now}`,
          account_id: account.accountId,
          store_id: account.storeId,
          platform: "shopify",
          shop: `m-${now}.myshopify.com`,
          credentials: "sealed",
          credentials_hint: "…abcd",
          state: "active",
          cursor: "{}",
          live_after: now,
          last_sync_at: null,
          orders_synced: 0,
          orders_skipped: 0,
          failures: 0,
          last_error: null,
          webhooks: "failing",
          created_at: now,
          updated_at: now,
        })
        .execute();

      let text = await scrape();
      expect(
        sample(text, "velvet_store_connections", {
          platform: "shopify",
          state: "active",
          webhooks: "failing",
        }),
      ).toBe(1);
      const http = "velvet_http_request_duration_seconds_count";
      expect(sample(text, http, { method: "POST", route: "/api/v1/orders", status: "200" })).toBe(
        2,
      );
      expect(sample(text, http, { method: "POST", route: "/api/v1/orders", status: "400" })).toBe(
        1,
      );
      // This 404, the first test's GET /metrics on the public port and the unknown asset: one
      // series for all three.
      expect(sample(text, http, { method: "GET", route: "unmatched", status: "404" })).toBe(3);
      // The repeat came while the enrichment was pending: queued too.
      const submissions = (status: string) =>
        sample(text, "velvet_order_submissions_total", { enrichment_status: status });
      expect(submissions("queued")).toBe(2);
      expect(submissions("existing")).toBeNull();
      const jobs = (state: string) =>
        sample(text, "velvet_jobs", { task: "enrich-customer", state });
      expect([jobs("due"), jobs("running"), jobs("given_up")]).toEqual([1, 0, 1]);
      const age = sample(text, "velvet_job_oldest_due_age_seconds", { task: "enrich-customer" });
      expect(age).toBeGreaterThanOrEqual(0);
      expect(age).toBeLessThan(60);

      // The worker runs the enrichment: one provider answer, and the job is gone.
      const worker = createWorker(deps, allTasks(deps));
      expect(await worker.runOnce()).toBeGreaterThanOrEqual(1);
      expect((await submit(body)).status).toBe(200);
      const vip = await seedVip(deps, { webhookUrl: chat.webhookUrl });
      const queued = await deps.db.kysely
        .transaction()
        .execute((trx) => enqueueVipAlerts(trx, vip, deps.clock.now()));
      const alertId = queued.find((q) => q.channel === "chat")?.alertId as string;
      expect(await runAlertJob(deps, deliverChatAlert(deps.alerts), alertId)).toEqual({
        kind: "done",
      });

      text = await scrape();
      const calls = { provider: "pdl", outcome: "matched", reason: "matched" };
      expect(sample(text, "velvet_provider_calls_total", calls)).toBe(1);
      expect(jobs("due")).toBe(0);
      expect(submissions("existing")).toBe(1);
      expect(
        sample(text, "velvet_alert_deliveries_total", { channel: "chat", outcome: "delivered" }),
      ).toBe(1);
    });
  });
}

describe("circuit state", () => {
  it("marks exactly one state per provider", async () => {
    const engine = ENGINES[0];
    if (engine === undefined) throw new Error("no engine");
    const database = await engine.create();
    const config = { ...loadConfig({ LOG_LEVEL: "silent" }), database: database.target };
    const deps = await buildDeps({ config, log: pino({ level: "silent" }), providers: [] });
    try {
      const metrics = createPromMetrics({
        db: deps.db,
        clock: deps.clock,
        sqliteFile: null,
        providers: ["pdl"],
      });
      metrics.circuitState("pdl", "open");
      metrics.destinationDelivery("webhook", "delivered");
      const { body } = await metrics.render();
      expect(
        sample(body, "velvet_destination_deliveries_total", {
          kind: "webhook",
          outcome: "delivered",
        }),
      ).toBe(1);
      expect(
        sample(body, "velvet_provider_circuit_state", { provider: "pdl", state: "open" }),
      ).toBe(1);
      expect(
        sample(body, "velvet_provider_circuit_state", { provider: "pdl", state: "closed" }),
      ).toBe(0);
    } finally {
      await closeDeps(deps);
      await database.drop();
    }
  });
});
