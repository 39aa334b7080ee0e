/**
 * The one place that wires Velvet together: configuration → database → dependencies → app.
 * Commands call these functions; nothing else constructs infrastructure.
 */
import { type Logger, pino } from "pino";
import { type Config, loadConfig } from "./config.js";
import { openDatabase } from "./db/connect.js";
import { migrateToLatest } from "./db/migrate.js";
import type { Deps } from "./deps.js";
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
}

/** Opens the database (migrating it unless told not to) and returns the dependency object. */
export async function buildDeps(options: BuildDepsOptions = {}): Promise<Deps> {
  const config = options.config ?? loadConfig();
  const log = options.log ?? createLogger(config);
  const db = openDatabase(config.database);
  try {
    if (options.migrate !== false) await migrateToLatest(db.kysely);
  } catch (error) {
    await db.close();
    throw error;
  }
  return { config, db, clock: options.clock ?? systemClock, log };
}

export async function closeDeps(deps: Deps): Promise<void> {
  await deps.db.close();
}
