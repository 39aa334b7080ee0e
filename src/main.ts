/**
 * The one place that wires Velvet together: configuration → database → dependencies → app.
 * Commands call these functions; nothing else constructs infrastructure.
 */
import { type Logger, pino } from "pino";
import { type Config, loadConfig } from "./config.js";
import { type Db, openDatabase } from "./db/connect.js";
import { databaseUnavailable } from "./db/database-unavailable.js";
import { type MigrationReport, migrateToLatest } from "./db/migrate.js";
import type { Deps } from "./deps.js";
import { type AlertDelivery, createAlertDelivery } from "./features/alerts/alert-deps.js";
import { lookupEach } from "./features/enrichment/providers/lookup-all.js";
import type { EnrichmentProvider } from "./features/enrichment/providers/provider.js";
import { createThreadedProviders } from "./features/enrichment/providers/provider-thread.js";
import { loadBundledZipIncome } from "./features/zip-income/load-bundled-zip-income.js";
import { createJobWakeup } from "./jobs/job-wakeup.js";
import { type Clock, systemClock } from "./lib/clock.js";

export function createLogger(config: Pick<Config, "logLevel">): Logger {
  return pino({
    level: config.logLevel,
    redact: {
      paths: ["req.headers.authorization", 'req.headers["x-api-key"]'],
      censor: "[redacted]",
    },
  });
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
}

/** Opens the database (migrating it unless told not to) and returns the dependency object. */
export async function buildDeps(options: BuildDepsOptions = {}): Promise<Deps> {
  const config = options.config ?? loadConfig();
  const log = options.log ?? createLogger(config);
  const db = openDatabase(config.database, {
    backgroundCheckpoints: options.longRunning
      ? (error) => log.error({ error }, "SQLite background checkpoint failed")
      : undefined,
  });
  try {
    if (options.migrate !== false) await prepareDatabase(db, log);
  } catch (error) {
    await db.close();
    throw databaseUnavailable(error, config.database) ?? error;
  }
  const clock = options.clock ?? systemClock;
  const threaded =
    options.providers === undefined
      ? createThreadedProviders(config.enrichment, log.child({ component: "providers" }))
      : { providers: options.providers, lookupAll: lookupEach, close: async () => {} };
  const alerts = options.alerts ?? createAlertDelivery(config);
  return {
    config,
    db,
    clock,
    log,
    jobs: createJobWakeup(),
    providers: threaded.providers,
    lookupAll: threaded.lookupAll,
    closeProviders: threaded.close,
    alerts,
  };
}

/**
 * Brings a database up to date: pending migrations, then the reference data Velvet ships (the
 * Census ZIP-code incomes, loaded only into an empty table).
 */
export async function prepareDatabase(
  db: Db,
  log: Logger,
): Promise<MigrationReport & { zipIncomesLoaded: number }> {
  const report = await migrateToLatest(db.kysely);
  const zipIncomesLoaded = await loadBundledZipIncome(db);
  if (zipIncomesLoaded > 0)
    log.info({ rows: zipIncomesLoaded }, "loaded the bundled Census ZIP-code income table");
  return { ...report, zipIncomesLoaded };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.closeProviders();
  await deps.alerts.close();
  await deps.db.close();
}
