/**
 * Store webhooks: signed Shopify `orders/create` deliveries posted to
 * `POST /api/v1/webhooks/shopify/<connection id>` of one `velvet serve` process (worker on), at
 * fixed rates, open-loop (paced-load.ts: a slow answer shows as latency, never as a lower rate),
 * on SQLite and on PostgreSQL (a database made and dropped per run on BENCH_PG_URL's server, as
 * orders-postgres.ts does). Each delivery is a new customer; one in twenty repeats an earlier,
 * answered one (shopify-deliveries.ts). Shopify counts a delivery not answered within 5 s as
 * failed and retries it: the answer must stay well inside that however busy the server is with
 * the orders it already took, so the worker runs in the same process, enriching every new
 * customer against the provider fakes (their own process, every lookup answered in
 * SLOW_PROVIDER_MS) with the enrichment phase's settings.
 *
 * The connection: an account made with `velvet account create` on the fresh database, then the
 * connection row written with credentials sealed by the project's own `sealCredentials` under
 * the server's STORE_TOKEN_KEY, pointing at a fake Shopify in its own process that answers the
 * worker's start-up sync with an empty page (webhook-connection.ts says why and how);
 * STORE_SYNC_INTERVAL_SECONDS and STORE_RECONCILE_INTERVAL_SECONDS are a day, so no sync or
 * webhook check runs during the stream, and the connection is checked untouched after it.
 *
 * After each stream the benchmark reads the database until every delivered order is taken and
 * every customer enriched: how long after the last delivery each happened (the intake lag), and
 * the orders taken and enrichments stored a second during the measured window.
 * BENCH_WEBHOOK_RATES: the rates, deliveries a second (default "200,300").
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { measureCpu } from "./cpu.js";
import { DRAIN_TIMEOUT_MS, VELVET_SETTINGS } from "./enrichment-settings.js";
import { type FakeProvidersProcess, startFakeProvidersProcess } from "./fake-providers-process.js";
import { type FakeShopifyProcess, startFakeShopifyProcess } from "./fake-shopify-process.js";
import { runTag } from "./order-bodies.js";
import { counter } from "./order-sources.js";
import { runPaced } from "./paced-load.js";
import { createDatabase } from "./pg-database.js";
import type { Phase, PhaseContext, PhaseReport } from "./phase.js";
import { shopifyDeliveries } from "./shopify-deliveries.js";
import { createAccount, startVelvet } from "./velvet-process.js";
import {
  connectionState,
  insertShopifyConnection,
  waitForFirstSync,
} from "./webhook-connection.js";
import { ratesBetween, waitUntilTaken } from "./webhook-intake.js";
import { webhookTargets } from "./webhooks-checks.js";
import type { WebhookRun } from "./webhooks-run.js";
import { webhooksTable } from "./webhooks-table.js";

/** Every provider lookup answered after this long (ms). */
export const SLOW_PROVIDER_MS = "2000";
const SHOPIFY_TOKEN = "shpat_bench";
const DAY_SECONDS = "86400";

function rates(): number[] {
  const raw = process.env.BENCH_WEBHOOK_RATES ?? "200,300";
  const list = raw.split(",").map((s) => Number(s.trim()));
  if (list.length === 0 || list.some((r) => !Number.isFinite(r) || r <= 0))
    throw new Error(
      `BENCH_WEBHOOK_RATES must be deliveries a second, e.g. "200,300"; got "${raw}"`,
    );
  return list;
}

export const webhooksPhase: Phase = {
  name: "webhooks",
  title: "Store webhooks: Shopify deliveries answered, and the orders taken after",
  budgetSec: (s) =>
    2 * rates().length * (s.warmupSec + s.durationSec + DRAIN_TIMEOUT_MS / 1000 + 60) + 60,
  run: runWebhooksPhase,
};

interface Shared {
  providers: FakeProvidersProcess;
  shopify: FakeShopifyProcess;
  run: string;
  next: () => number;
}

async function runWebhooksPhase(context: PhaseContext): Promise<PhaseReport> {
  context.log(
    `fake providers answering in ${SLOW_PROVIDER_MS} ms, fake Shopify, each in its own process`,
  );
  const providers = await startFakeProvidersProcess(subdir(context, "fakes"), SLOW_PROVIDER_MS);
  const runs: WebhookRun[] = [];
  try {
    const shopify = await startFakeShopifyProcess(subdir(context, "fakes"), SHOPIFY_TOKEN);
    try {
      const shared = { providers, shopify, run: runTag(), next: counter() };
      for (const engine of ["SQLite", "PostgreSQL"] as const) {
        for (const rate of rates()) runs.push(await measureRun(context, shared, engine, rate));
      }
    } finally {
      await shopify.stop();
    }
  } finally {
    await providers.stop();
  }
  return {
    table: webhooksTable(runs, context.settings, SLOW_PROVIDER_MS),
    targets: webhookTargets(runs),
    raw: { velvetSettings: VELVET_SETTINGS, providerDelayMs: Number(SLOW_PROVIDER_MS), runs },
  };
}

async function measureRun(
  context: PhaseContext,
  shared: Shared,
  engine: WebhookRun["engine"],
  ratePerSec: number,
): Promise<WebhookRun> {
  const dir = subdir(context, `${engine.toLowerCase()}-${ratePerSec}`);
  if (engine === "SQLite") return measureOn(context, shared, engine, ratePerSec, dir, null);
  const database = await createDatabase();
  try {
    return await measureOn(context, shared, engine, ratePerSec, dir, database.url);
  } finally {
    await database.drop();
  }
}

async function measureOn(
  context: PhaseContext,
  shared: Shared,
  engine: WebhookRun["engine"],
  ratePerSec: number,
  dir: string,
  databaseUrl: string | null,
): Promise<WebhookRun> {
  const { connections, durationSec, warmupSec } = context.settings;
  const database = databaseUrl ?? path.join(dir, "velvet.db");
  const key = randomBytes(32);
  const env = {
    ...VELVET_SETTINGS,
    ...shared.providers.env,
    WORKER_ENABLED: "true",
    STORE_TOKEN_KEY: key.toString("hex"),
    WEBHOOKS_ALLOW_PRIVATE: "true",
    STORE_SYNC_INTERVAL_SECONDS: DAY_SECONDS,
    STORE_RECONCILE_INTERVAL_SECONDS: DAY_SECONDS,
  };
  const account = await createAccount({ ...process.env, DATABASE_URL: database, ...env });
  const connection = await insertShopifyConnection({
    database,
    account,
    shop: shared.shopify.shop,
    token: shared.shopify.token,
    webhookSecret: randomBytes(24).toString("hex"),
    key,
  });
  context.log(`${engine} ${ratePerSec}/s: velvet serve, worker on, connection ${connection.id}`);
  const velvet = await startVelvet({
    dir,
    env,
    account,
    ...(databaseUrl === null ? {} : { databaseUrl }),
  });
  try {
    const connectionBefore = await waitForFirstSync(database, connection.id);
    const source = shopifyDeliveries({
      run: shared.run,
      next: shared.next,
      secret: connection.webhookSecret,
      // What the fake Shopify says in its own deliveries: its host (test/fakes/shopify-admin.ts).
      shopDomain: new URL(shared.shopify.shop).host,
    });
    context.log(
      `  ${ratePerSec} deliveries/s for ${warmupSec} s + ${durationSec} s measured, up to ${connections} connections`,
    );
    const { value: load, cpu } = await measureCpu(velvet.child.process.pid, () =>
      runPaced({
        url: velvet.url,
        path: `/api/v1/webhooks/shopify/${connection.id}`,
        headers: {},
        connections,
        ratePerSec,
        warmupSec,
        durationSec,
        source,
      }),
    );
    const { tally } = source;
    context.log(
      `  answered ${JSON.stringify(load.statusCodes)} of ${load.sent} (errors ${load.errors}), p50 ${load.window.p50Ms.toFixed(2)} ms, p99 ${load.window.p99Ms.toFixed(2)} ms, max ${load.all.maxMs.toFixed(1)} ms; repeats ${tally.repeatsAnsweredDuplicate}/${tally.repeatsSent} duplicate; serve ${cpu.serverCores?.toFixed(2)} cores`,
    );
    const settled = await waitUntilTaken(database, tally.newSent, DRAIN_TIMEOUT_MS);
    const lag = (at: number | null) =>
      at === null ? null : Math.max(0, at - load.lastSentAt) / 1000;
    const run: WebhookRun = {
      engine,
      ratePerSec,
      warmupSec,
      load,
      tally,
      cpu,
      connectionBefore,
      connectionAfter: await connectionState(database, connection.id),
      settled,
      takenLagSec: lag(settled.takenAt),
      enrichedLagSec: lag(settled.settledAt),
      rates: await ratesBetween(database, load.windowStart, load.windowEnd),
    };
    context.log(
      `  orders taken ${run.takenLagSec ?? "never"} s and enriched ${run.enrichedLagSec ?? "never"} s after the last delivery; in the window ${run.rates.takenPerSec.toFixed(1)} taken/s, ${run.rates.enrichedPerSec.toFixed(1)} enriched/s`,
    );
    return run;
  } finally {
    await velvet.stop();
  }
}

function subdir(context: PhaseContext, name: string): string {
  const dir = path.join(context.dir, name);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}
