/**
 * The one place that wires Velvet together: configuration → database → dependencies → app.
 * Commands call these functions; nothing else constructs infrastructure.
 */
import fs from "node:fs";
import { type DestinationStream, type Logger, pino } from "pino";
import type { AppDeps } from "./app-deps.js";
import { type Config, loadConfig, sessionUrl } from "./config.js";
import { type Db, openDatabase } from "./db/connect.js";
import { databaseUnavailable } from "./db/database-unavailable.js";
import { type MigrationReport, migrateToLatest } from "./db/migrate.js";
import { type AlertDelivery, createAlertDelivery } from "./features/alerts/alert-deps.js";
import { alertPersonalData } from "./features/alerts/alert-personal-data.js";
import { alertOnVip } from "./features/alerts/enqueue-vip-alerts.js";
import { chargePersonalData } from "./features/billing/charge-personal-data.js";
import { orderPersonalData } from "./features/customers/order-personal-data.js";
import { warnOfAgeingApiVersions } from "./features/destinations/api-version-warnings.js";
import { destinationRegistry } from "./features/destinations/destination-driver.js";
import { destinationDrivers } from "./features/destinations/destination-kinds.js";
import { destinationPersonalData } from "./features/destinations/destination-personal-data.js";
import { destinationHandlers } from "./features/destinations/enqueue-deliveries.js";
import { enrichmentPersonalData } from "./features/enrichment/enrichment-personal-data.js";
import { configuredProviderNames } from "./features/enrichment/providers/create-providers.js";
import { lookupEach } from "./features/enrichment/providers/lookup-all.js";
import { observeProviderCalls } from "./features/enrichment/providers/observe-provider-calls.js";
import type { EnrichmentProvider } from "./features/enrichment/providers/provider.js";
import { createThreadedProviders } from "./features/enrichment/providers/provider-thread.js";
import { loadBundledRates } from "./features/exchange-rates/load-bundled-rates.js";
import { createPromMetrics } from "./features/metrics/create-prom-metrics.js";
import { type Metrics, noMetrics } from "./features/metrics/metrics.js";
import { sharedLimitsBackend } from "./features/shared-limits/shared-limits-backend.js";
import { createSharedSlots } from "./features/shared-limits/shared-slots.js";
import { verdictPersonalData } from "./features/verdicts/verdict-personal-data.js";
import { loadBundledZipIncome } from "./features/zip-income/load-bundled-zip-income.js";
import { createJobWakeup } from "./jobs/job-wakeup.js";
import { postgresWakeups } from "./jobs/pg-wakeups.js";
import { type Clock, systemClock } from "./lib/clock.js";
import { scrubLogLine } from "./lib/log-scrub.js";
import { createOutboundHttp } from "./lib/outbound/outbound-http.js";

/** Every outside call ends within this (a receiver that hangs must not hold a job's lease). */
const OUTBOUND_TIMEOUT_MS = 10_000;
/** Answers Velvet reads from webhooks and APIs are small; an error excerpt needs no more. */
const OUTBOUND_MAX_BODY_BYTES = 64 * 1024;

/** Lines are written to stdout in chunks of this many bytes at most, or every LOG_FLUSH_MS. */
const LOG_CHUNK_BYTES = 16_000;
const LOG_FLUSH_MS = 1000;

/**
 * Stdout written off the hot path: lines gather in memory and leave together (one write per
 * ~100 access-log lines under load instead of one each, which a CPU profile showed costing as
 * much as the rest of the logging), at the latest a second later; what is left is written
 * synchronously when the process exits. The lines gather here, not in sonic-boom's own buffer
 * (its `minLength`), because sonic-boom measures the UTF-8 length of its whole pending chunk on
 * every write: up to 16 kB scanned per line, more than the line itself cost to make.
 */
function bufferedStdout(): DestinationStream {
  let pending = "";
  let out: ReturnType<typeof pino.destination> | null = null;
  const handOver = () => {
    if (pending === "" || out === null) return;
    const chunk = pending;
    pending = "";
    // A line logged once the destination is ending still goes out, synchronously.
    if (ending) writeSyncQuietly(chunk);
    else out.write(chunk);
  };
  // Registered before the destination, whose own handlers run after ours: at 'beforeExit' it
  // flushes and ends itself (so the lines still gathered here must reach it first), at 'exit'
  // it flushes synchronously. A process that empties its event loop meets both; one that
  // calls process.exit() only the second.
  let ending = false;
  process.on("beforeExit", () => {
    handOver();
    ending = true;
  });
  process.on("exit", handOver);
  out = pino.destination({ dest: 1, sync: false });
  const destination = out;
  setInterval(() => {
    try {
      handOver();
      destination.flush();
    } catch {
      // Ended (the process is closing): nothing left to write.
    }
  }, LOG_FLUSH_MS).unref();
  return {
    write(line: string) {
      pending += line;
      if (pending.length >= LOG_CHUNK_BYTES) handOver();
    },
    flush() {
      handOver();
      destination.flush();
    },
  } as DestinationStream;
}

function writeSyncQuietly(chunk: string): void {
  try {
    fs.writeSync(1, chunk);
  } catch {
    // Stdout is gone (a closed pipe): nothing can be written anywhere.
  }
}

/** The process log (stdout unless `destination` is given), every line scrubbed of people and tokens. */
export function createLogger(
  config: Pick<Config, "logLevel">,
  destination?: DestinationStream,
): Logger {
  const options = {
    level: config.logLevel,
    redact: {
      paths: ["req.headers.authorization", 'req.headers["x-api-key"]'],
      censor: "[redacted]",
    },
    hooks: { streamWrite: scrubLogLine },
  };
  return pino(options, destination ?? bufferedStdout());
}

export interface BuildDepsOptions {
  config?: Config;
  clock?: Clock;
  log?: Logger;
  migrate?: boolean;
  /** Replace the configured providers (tests, benchmarks). */
  providers?: EnrichmentProvider[];
  /** Replace the alert senders (tests: no pacing, a fake resolver). */
  alerts?: AlertDelivery;
  /** A long-running process (serve, worker): SQLite checkpoints on a thread of their own. */
  longRunning?: boolean;
  /**
   * Collect Prometheus metrics. Default: in a long-running process with METRICS_PORT set;
   * admin commands never collect.
   */
  metrics?: boolean;
  /** SQLite: the write lock of the thread that opened the file first (a worker thread's). */
  sqliteWriteLock?: SharedArrayBuffer;
  /** Record metrics here instead (a worker thread forwarding to its process's registry). */
  recordMetricsTo?: Metrics;
}

/** Opens the database (migrating it unless told not to) and returns the dependency object. */
export async function buildDeps(options: BuildDepsOptions = {}): Promise<AppDeps> {
  const config = options.config ?? loadConfig();
  const log = options.log ?? createLogger(config);
  const db = openDatabase(config.database, {
    sharedWriteLock: options.sqliteWriteLock,
    backgroundCheckpoints: options.longRunning
      ? ({ failing }) =>
          failing === null
            ? log.info("SQLite background checkpoints work again")
            : log.error({ error: failing }, "SQLite background checkpoint failed")
      : undefined,
  });
  try {
    if (options.migrate !== false) await prepareDatabase(db, log);
  } catch (error) {
    await db.close();
    throw databaseUnavailable(error, config.database) ?? error;
  }
  const clock = options.clock ?? systemClock;
  // A process that runs for long says so when the platform versions it speaks are ageing.
  if (options.longRunning) warnOfAgeingApiVersions(config, clock.now(), log);
  const collect = options.metrics ?? (options.longRunning === true && config.metrics.port !== null);
  const metrics: Metrics =
    options.recordMetricsTo ??
    (collect
      ? createPromMetrics({
          db,
          clock,
          sqliteFile: config.database.kind === "sqlite" ? config.database.file : null,
          providers:
            options.providers?.map((p) => p.name) ?? configuredProviderNames(config.enrichment),
        })
      : noMetrics);
  // Provider quotas and chat pacing hold for every process on the database (shared-limits/).
  const sharedLimits = sharedLimitsBackend(db);
  const threaded =
    options.providers === undefined
      ? createThreadedProviders(
          config.enrichment,
          log.child({ component: "providers" }),
          metrics,
          sharedLimits,
        )
      : { providers: options.providers, lookupAll: lookupEach, close: async () => {} };
  // One outbound client for the process: chat alerts and destinations share its guarded agent.
  const http = createOutboundHttp({
    allowPrivate: config.alerts.allowPrivateWebhooks,
    timeoutMs: OUTBOUND_TIMEOUT_MS,
    maxBodyBytes: OUTBOUND_MAX_BODY_BYTES,
    userAgent: "Velvet/1",
  });
  const chatSlots = createSharedSlots({
    backend: sharedLimits,
    onReachability: (reachable, error) =>
      reachable
        ? log.info("shared chat pacing reachable again")
        : log.warn(
            { err: error },
            "shared chat pacing unreachable: each process paces its own webhooks until the database answers",
          ),
  });
  const alerts = options.alerts ?? createAlertDelivery(config, { http, shared: chatSlots });
  // Each destination kind's driver (the kinds are registered in destination-kinds.ts).
  const destinations = destinationRegistry(destinationDrivers(config));
  const deliver = destinationHandlers(destinations);
  return {
    config,
    db,
    clock,
    log,
    jobs: createJobWakeup(
      // The listener needs a session of its own: a direct URL, never a transaction pooler's.
      config.database.kind === "postgres"
        ? postgresWakeups({
            db: db.kysely,
            listenUrl: sessionUrl(config.database),
            log,
          })
        : undefined,
    ),
    providers: threaded.providers,
    lookupAll: metrics.enabled
      ? observeProviderCalls(threaded.lookupAll, metrics)
      : threaded.lookupAll,
    // Who hears of an enrichment: enrichment raises the events without knowing the listeners.
    events: {
      customerEnriched: [deliver.onEnriched],
      vipFound: [
        alertOnVip(config.storeSync.tokenKey, log.child({ component: "alerts" })),
        deliver.onVip,
      ],
      // A VIP a re-judge found under the line: machines are told, people are not alerted.
      vipLost: [deliver.onVipLost],
    },
    // Where a person's data lives, and who must hear that they were forgotten.
    privacy: {
      holders: [
        orderPersonalData,
        enrichmentPersonalData,
        alertPersonalData,
        verdictPersonalData,
        chargePersonalData,
        destinationPersonalData,
      ],
      forgotten: [deliver.onForgotten],
    },
    destinations,
    closeProviders: threaded.close,
    http,
    alerts,
    metrics,
  };
}

/**
 * Brings a database up to date: pending migrations, then the reference data Velvet ships (the
 * Census ZIP-code incomes, loaded only into an empty table; the ECB reference rates, stored
 * only when none as recent are held).
 */
export async function prepareDatabase(
  db: Db,
  log: Logger,
  now: number = Date.now(),
): Promise<MigrationReport & { zipIncomesLoaded: number; referenceRatesLoaded: string | null }> {
  const report = await migrateToLatest(db.kysely);
  const zipIncomesLoaded = await loadBundledZipIncome(db);
  if (zipIncomesLoaded > 0)
    log.info({ rows: zipIncomesLoaded }, "loaded the bundled Census ZIP-code income table");
  const referenceRatesLoaded = await loadBundledRates(db, now);
  if (referenceRatesLoaded !== null)
    log.info({ date: referenceRatesLoaded }, "loaded the bundled ECB reference rates");
  return { ...report, zipIncomesLoaded, referenceRatesLoaded };
}

export async function closeDeps(deps: AppDeps): Promise<void> {
  await deps.jobs.close();
  await deps.closeProviders();
  await deps.alerts.close();
  await deps.http.close();
  await deps.db.close();
}
