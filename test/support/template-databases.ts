/**
 * The run's migrated template databases: made once per `vitest run` (global setup:
 * template-setup.ts) by `prepareDatabase`, as `velvet migrate` and `velvet serve` prepare a
 * database, so a test's fresh migrated database is a file copy (SQLite) or `CREATE DATABASE …
 * TEMPLATE` (PostgreSQL) instead of every migration and the reference data loaded again.
 */
import { pino } from "pino";
import { inject } from "vitest";
import type { DatabaseTarget } from "../../src/config.js";

export interface MigratedTemplates {
  /** The migrated SQLite file to copy. */
  sqliteFile: string;
  /** The migrated PostgreSQL database to copy, null when PostgreSQL is not reachable. */
  postgresDatabase: string | null;
}

declare module "vitest" {
  export interface ProvidedContext {
    migratedTemplates: MigratedTemplates;
  }
}

/** The run's templates; null outside a vitest run (a benchmark importing the test support). */
export function migratedTemplates(): MigratedTemplates | null {
  return process.env.VITEST === "true" ? inject("migratedTemplates") : null;
}

/** Migrates the database and loads the reference data, as a starting process does. */
export async function prepareTestDatabase(target: DatabaseTarget): Promise<void> {
  // Loaded here, not at the top: most files importing the engines never migrate themselves.
  const [{ openDatabase }, { prepareDatabase }] = await Promise.all([
    import("../../src/db/connect.js"),
    import("../../src/main.js"),
  ]);
  const db = openDatabase(target);
  try {
    await prepareDatabase(db, pino({ level: "silent" }));
  } finally {
    await db.close();
  }
}
